import { RecordingSpool } from "@voice-agent-platform/core"
import { Effect, Layer } from "effect"
import { mkdtemp, open, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"

/**
 * Live calls' recordings spooled to temporary files (`RecordingSpool`): each call gets a directory of its
 * own under the system's temporary directory (`os.tmpdir()`: `TMPDIR`), one file a side, each block
 * written at its place (`block × bytes`); the directory is removed when the call's scope closes (its
 * recording stored or given up). A failing file (a full disk) fails the operation: the call's recording
 * is given up, the call goes on.
 */

const failed = (what: string, error: unknown) =>
  new RecordingSpool.RecordingSpoolFailed({
    message: `${what} failed (${(error as NodeJS.ErrnoException).code ?? "error"})`
  })

export const make = (directory: string = tmpdir()): RecordingSpool.RecordingSpoolsService => ({
  open: Effect.gen(function* () {
    const dir = yield* Effect.acquireRelease(
      Effect.tryPromise({
        try: () => mkdtemp(join(directory, "call-recording-")),
        catch: (error) => failed("creating the recording's directory", error)
      }),
      (dir) => Effect.promise(() => rm(dir, { recursive: true, force: true }).catch(() => undefined))
    )
    const fileOf = (side: RecordingSpool.Side) =>
      Effect.acquireRelease(
        Effect.tryPromise({
          try: () => open(join(dir, `${side}.pcm`), "w+"),
          catch: (error) => failed("opening the recording's file", error)
        }),
        (file) => Effect.promise(() => file.close().catch(() => undefined))
      )
    const files = { caller: yield* fileOf("caller"), agent: yield* fileOf("agent") }
    // whole blocks: every block of a side but its last has the first block's size
    const blockBytes = { caller: 0, agent: 0 }
    const spool: RecordingSpool.RecordingSpool = {
      write: (side, index, bytes) =>
        Effect.tryPromise({
          try: async () => {
            if (blockBytes[side] === 0) blockBytes[side] = bytes.length
            await files[side].write(bytes, 0, bytes.length, index * blockBytes[side])
          },
          catch: (error) => failed("writing the recording", error)
        }),
      read: (side, index) =>
        Effect.tryPromise({
          try: async () => {
            const size = blockBytes[side]
            if (size === 0) return null
            const bytes = new Uint8Array(size)
            const { bytesRead } = await files[side].read(bytes, 0, size, index * size)
            return bytesRead === 0 ? null : bytes.subarray(0, bytesRead)
          },
          catch: (error) => failed("reading the recording", error)
        })
    }
    return spool
  })
})

/** The server's spools: temporary files. */
export const layer = (directory?: string): Layer.Layer<RecordingSpool.RecordingSpools> =>
  RecordingSpool.layer(make(directory))
