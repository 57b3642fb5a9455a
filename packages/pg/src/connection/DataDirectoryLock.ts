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
 * Whether a process with this id runs and is a Node process. A lock left by a killed server names a
 * process id that, after a reboot, may belong to something else: that one does not hold the database.
 */
const holdsDatabase = async (pid: number): Promise<boolean> => {
  try {
    process.kill(pid, 0)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EPERM") return false
  }
  const commandLine = await ExclusiveFile.read(`/proc/${pid}/cmdline`).catch(() => undefined)
  return commandLine === undefined || commandLine.includes("node")
}

/**
 * Holds `<dataDirectory>.lock` (this process's id) while the database is open, so that a second server on
 * the same directory stops instead of corrupting it. The lock is created atomically with its content. A
 * lock whose process is gone (killed) is taken over: it is first renamed to a name of this process's own
 * (of two processes taking it over, one finds it gone and starts again), and put back if what was renamed
 * turns out to be a live lock made in between. Released only by its owner.
 */
export const hold = (dataDirectory: string) => {
  const lockFile = `${dataDirectory}.lock`
  const mine = String(process.pid)
  const take = Effect.tryPromise({
    try: async () => {
      for (let attempt = 0; attempt < 20; attempt++) {
        if (await ExclusiveFile.create(lockFile, mine, 0o644)) return
        const text = await ExclusiveFile.read(lockFile)
        if (text === undefined) continue
        const holder = Number(text.trim())
        if (holder === process.pid) return
        if (Number.isSafeInteger(holder) && holder > 0 && (await holdsDatabase(holder))) {
          throw new EmbeddedDatabaseInUse({ dataDirectory, pid: holder })
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
  const release = Effect.promise(async () => {
    if ((await ExclusiveFile.read(lockFile))?.trim() === mine) await fs.rm(lockFile, { force: true })
  })
  return Effect.acquireRelease(take, () => release)
}
