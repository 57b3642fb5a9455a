import { Context, Effect, Layer, type Scope } from "effect"
import type { RecordingSpoolFailed } from "./LiveCallErrors.js"

/**
 * Where a live call's recording keeps each side's audio until the call ends (`CallRecording`): blocks of
 * PCM16 bytes, written once each at their index (in any order) and read back for the mix. The server
 * spools to temporary files (`FileRecordingSpool` in `@voice-agent-platform/voice`), so that a live call
 * holds only the blocks still changing in memory; the default keeps the blocks in memory (tests, the
 * embedded engine). A spool is opened in a scope and removed with it.
 */

export type Side = "caller" | "agent"

export interface RecordingSpool {
  /** Writes block `index` of `side` (each block once; all but the last of a side are whole). */
  readonly write: (side: Side, index: number, bytes: Uint8Array) => Effect.Effect<void, RecordingSpoolFailed>
  /** Block `index` of `side` as written; null for a block never written (silence). */
  readonly read: (side: Side, index: number) => Effect.Effect<Uint8Array | null, RecordingSpoolFailed>
}

export { RecordingSpoolFailed } from "./LiveCallErrors.js"

export interface RecordingSpoolsService {
  /** A fresh spool for one call's recording, removed when the scope closes. */
  readonly open: Effect.Effect<RecordingSpool, RecordingSpoolFailed, Scope.Scope>
}

/** Blocks in memory: what a test or the embedded engine records with. */
export const memory: RecordingSpoolsService = {
  open: Effect.sync(() => {
    const blocks = { caller: new Map<number, Uint8Array>(), agent: new Map<number, Uint8Array>() }
    return {
      write: (side, index, bytes) => Effect.sync(() => void blocks[side].set(index, bytes.slice())),
      read: (side, index) => Effect.sync(() => blocks[side].get(index) ?? null)
    }
  })
}

export class RecordingSpools extends Context.Reference<RecordingSpools>()(
  "@voice-agent-platform/core/RecordingSpools",
  { defaultValue: (): RecordingSpoolsService => memory }
) {}

export const layer = (spools: RecordingSpoolsService): Layer.Layer<RecordingSpools> =>
  Layer.succeed(RecordingSpools, spools)
