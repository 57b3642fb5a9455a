import { Data, Effect } from "effect"
import * as crypto from "node:crypto"
import * as fs from "node:fs/promises"
import * as ExclusiveFile from "../local-files/ExclusiveFile.js"

/** The data directory is open in another live process: PGlite is one process's database. */
export class EmbeddedDatabaseInUse extends Data.TaggedError("EmbeddedDatabaseInUse")<{
  readonly dataDirectory: string
  readonly pid: number
}> {
  override get message() {
    return (
      `The embedded database in ${this.dataDirectory} is in use by process ${this.pid}. ` +
      `Stop that server first, or run several servers over one PostgreSQL server with DATABASE_URL.`
    )
  }
}

/**
 * When a process started (clock ticks since boot, from `/proc/<pid>/stat`), where the system tells; it
 * tells a process from a later one that reuses its id (after a reboot, or a container's restart, where
 * the server is often process 1 again).
 */
const startTimeOf = async (pid: number): Promise<string | undefined> => {
  const stat = await ExclusiveFile.read(`/proc/${pid}/stat`).catch(() => undefined)
  // Fields after the command name (which may hold spaces), from the third; the start time is the 22nd.
  return stat?.slice(stat.lastIndexOf(")") + 2).split(" ")[19]
}

/** This process, as a lock names it: its id and, where known, its start time. */
const ownerOf = async (pid: number): Promise<string> => {
  const started = await startTimeOf(pid)
  return started === undefined ? String(pid) : `${pid} ${started}`
}

/** Whether the process a lock names still runs: the same id and, where known, the same start time. */
const holds = async (owner: string): Promise<boolean> => {
  const [pidText, started] = owner.trim().split(" ")
  const pid = Number(pidText)
  if (!Number.isSafeInteger(pid) || pid <= 0) return false
  try {
    process.kill(pid, 0)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EPERM") return false
  }
  return started === undefined || (await startTimeOf(pid)) === started
}

/**
 * Holds `<dataDirectory>.lock` (this process's id and start time) while the database is open, so that a second server on
 * the same directory stops instead of corrupting it. The lock is created atomically with its content. A
 * lock whose process is gone (killed, or its id now used by another process) is taken over: it is first renamed to a name of this process's own
 * (of two processes taking it over, one finds it gone and starts again), and put back if what was renamed
 * turns out to be a live lock made in between. Released only by its owner.
 */
export const hold = (dataDirectory: string) => {
  const lockFile = `${dataDirectory}.lock`
  const take = Effect.tryPromise({
    try: async () => {
      const mine = await ownerOf(process.pid)
      let emptySightings = 0
      for (let attempt = 0; attempt < 50; attempt++) {
        if (await ExclusiveFile.create(lockFile, mine, 0o644)) return mine
        const text = await ExclusiveFile.read(lockFile)
        if (text === undefined) continue
        if (text.trim() === mine) return mine
        if (text.trim() === "" && emptySightings++ < 25) {
          // being written where hard links are not available (see ExclusiveFile): look again shortly; one
          // that stays empty was left by a process killed while writing it, and is stale
          await new Promise((resolve) => setTimeout(resolve, 20))
          continue
        }
        if (await holds(text)) {
          throw new EmbeddedDatabaseInUse({ dataDirectory, pid: Number(text.trim().split(" ")[0]) })
        }
        const moved = `${lockFile}.stale.${process.pid}.${crypto.randomBytes(6).toString("hex")}`
        try {
          await fs.rename(lockFile, moved)
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === "ENOENT") continue
          throw error
        }
        const movedText = await ExclusiveFile.read(moved)
        if (movedText !== text) await fs.link(moved, lockFile).catch(() => undefined)
        await fs.rm(moved, { force: true })
      }
      throw new Error(`could not take ${lockFile}`)
    },
    catch: (error) => error
  }).pipe(
    Effect.catchIf(
      (error): error is unknown => !(error instanceof EmbeddedDatabaseInUse),
      (error) => Effect.die(error)
    ),
    Effect.mapError((error) => error as EmbeddedDatabaseInUse)
  )
  const release = (mine: string) =>
    Effect.promise(async () => {
      if ((await ExclusiveFile.read(lockFile))?.trim() === mine) await fs.rm(lockFile, { force: true })
    })
  return Effect.acquireRelease(take, release)
}
