import { Context, Effect } from "effect"
import { BrowserSessionsBusy } from "./LiveCallErrors.js"
import type { OrganizationId } from "../organizations/Organization.js"
import type { RunMode, RunStatus } from "../runs/Run.js"
import { RunStore } from "../runs/RunStore.js"

/**
 * How many browser voice sessions (`webrtc`, `smallwebrtc`) an organization may have live at once, like
 * its outbound channels for calls: each holds a speech-to-text session, a voice and the model. A session
 * is live from its creation while its socket may still open (`pendingSeconds`, its token's lifetime) and
 * while it runs (`in_progress`); one more is refused with `BrowserSessionsBusy` (429, `Retry-After`). The
 * count is read from storage (every server sees the same) before the run is created, not reserved:
 * sessions created at the same instant on several servers may pass it together. See docs/limits.md.
 */

export { BrowserSessionsBusy } from "./LiveCallErrors.js"

/** The default cap of live browser sessions per organization. */
export const defaultMaxLive = 10

/** How long a created session's socket may still open (its token's lifetime): it counts as live that long. */
export const pendingSeconds = 120

/** What a refused session is told to wait before trying again. */
export const retryAfterSeconds = 30

export class BrowserSessionLimit extends Context.Reference<BrowserSessionLimit>()(
  "@voice-agent-platform/core/BrowserSessionLimit",
  { defaultValue: () => ({ maxLive: defaultMaxLive }) }
) {}

const sessionModes: ReadonlyArray<RunMode> = ["webrtc", "smallwebrtc"]

/** The organization's live browser sessions at `now`. */
export const liveCount = (
  organizationId: OrganizationId,
  now: Date
): Effect.Effect<number, never, RunStore> =>
  Effect.gen(function* () {
    const runs = yield* RunStore
    const count = (mode: RunMode, status: RunStatus, created_after?: Date) =>
      Effect.map(
        runs.listAcrossAgents(
          organizationId,
          { mode, status, ...(created_after === undefined ? {} : { created_after }) },
          { page: 1, limit: 1 }
        ),
        (page) => page.total_count
      )
    const pendingSince = new Date(now.getTime() - pendingSeconds * 1000)
    const counts = yield* Effect.all(
      sessionModes.flatMap((mode) => [count(mode, "in_progress"), count(mode, "initialized", pendingSince)]),
      { concurrency: 1 }
    )
    return counts.reduce((sum, n) => sum + n, 0)
  })

/** Fails with `BrowserSessionsBusy` when the organization may open no more browser sessions now. */
export const admit = (
  organizationId: OrganizationId,
  now: Date
): Effect.Effect<void, BrowserSessionsBusy, RunStore> =>
  Effect.gen(function* () {
    const { maxLive } = yield* BrowserSessionLimit
    if ((yield* liveCount(organizationId, now)) < maxLive) return
    return yield* new BrowserSessionsBusy({ limit: maxLive, retry_after_seconds: retryAfterSeconds })
  })
