import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit } from "effect"
import { spawn } from "node:child_process"
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import * as DataDirectoryLock from "../../src/connection/DataDirectoryLock.js"

/** A process's start time, as the lock records it (Linux). */
const startTimeOf = (pid: number) =>
  Effect.promise(async () => {
    const stat = await fs.readFile(`/proc/${pid}/stat`, "utf8")
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19]!
  })

const directory = () =>
  Effect.promise(() => fs.mkdtemp(path.join(os.tmpdir(), "vap-lock-"))).pipe(
    Effect.map((parent) => path.join(parent, "postgres"))
  )

describe("DataDirectoryLock", () => {
  it.live("is held with this process's id and start time while the scope is open and removed after", () =>
    Effect.gen(function* () {
      const dataDirectory = yield* directory()
      const started = yield* startTimeOf(process.pid)
      yield* Effect.scoped(
        Effect.gen(function* () {
          yield* DataDirectoryLock.hold(dataDirectory)
          expect(yield* Effect.promise(() => fs.readFile(`${dataDirectory}.lock`, "utf8"))).toBe(
            `${process.pid} ${started}`
          )
        })
      )
      expect(
        yield* Effect.promise(() =>
          fs.access(`${dataDirectory}.lock`).then(
            () => true,
            () => false
          )
        )
      ).toBe(false)
    })
  )

  it.live("refuses a directory another live Node process holds, naming it, and leaves its lock alone", () =>
    Effect.gen(function* () {
      const dataDirectory = yield* directory()
      const other = spawn(process.execPath, ["-e", "setTimeout(() => {}, 30000)"])
      try {
        const owner = `${other.pid} ${yield* startTimeOf(other.pid!)}`
        yield* Effect.promise(() => fs.writeFile(`${dataDirectory}.lock`, owner))
        const exit = yield* Effect.exit(Effect.scoped(DataDirectoryLock.hold(dataDirectory)))
        expect(exit).toStrictEqual(
          Exit.fail(new DataDirectoryLock.EmbeddedDatabaseInUse({ dataDirectory, pid: other.pid! }))
        )
        expect(yield* Effect.promise(() => fs.readFile(`${dataDirectory}.lock`, "utf8"))).toBe(owner)
      } finally {
        other.kill("SIGKILL")
      }
    })
  )

  it.live(
    "takes over a lock left by a process that is gone, whose id another process now has, or left empty",
    () =>
      Effect.gen(function* () {
        // a live id with another start time is a later process that reused the id (this very one, too)
        const reused = [`1 ${(yield* startTimeOf(1)) + "0"}`, `${process.pid} 1`]
        for (const stale of ["999999999 12345", "999999999", ...reused, ""]) {
          const dataDirectory = yield* directory()
          yield* Effect.promise(() => fs.writeFile(`${dataDirectory}.lock`, stale))
          yield* Effect.scoped(
            Effect.gen(function* () {
              yield* DataDirectoryLock.hold(dataDirectory)
              expect(yield* Effect.promise(() => fs.readFile(`${dataDirectory}.lock`, "utf8"))).toBe(
                `${process.pid} ${yield* startTimeOf(process.pid)}`
              )
            })
          )
        }
      })
  )
})
