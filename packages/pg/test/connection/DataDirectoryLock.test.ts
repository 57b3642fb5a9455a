import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit } from "effect"
import { spawn } from "node:child_process"
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import * as DataDirectoryLock from "../../src/connection/DataDirectoryLock.js"

const directory = () =>
  Effect.promise(() => fs.mkdtemp(path.join(os.tmpdir(), "vap-lock-"))).pipe(
    Effect.map((parent) => path.join(parent, "postgres"))
  )

describe("DataDirectoryLock", () => {
  it.live("is held with this process's id while the scope is open and removed after", () =>
    Effect.gen(function* () {
      const dataDirectory = yield* directory()
      yield* Effect.scoped(
        Effect.gen(function* () {
          yield* DataDirectoryLock.hold(dataDirectory)
          expect(yield* Effect.promise(() => fs.readFile(`${dataDirectory}.lock`, "utf8"))).toBe(
            String(process.pid)
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
        yield* Effect.promise(() => fs.writeFile(`${dataDirectory}.lock`, String(other.pid)))
        const exit = yield* Effect.exit(Effect.scoped(DataDirectoryLock.hold(dataDirectory)))
        expect(exit).toStrictEqual(
          Exit.fail(new DataDirectoryLock.EmbeddedDatabaseInUse({ dataDirectory, pid: other.pid! }))
        )
        expect(yield* Effect.promise(() => fs.readFile(`${dataDirectory}.lock`, "utf8"))).toBe(
          String(other.pid)
        )
      } finally {
        other.kill("SIGKILL")
      }
    })
  )

  it.live(
    "takes over a lock left by a process that is gone, or by a process id now used by something else",
    () =>
      Effect.gen(function* () {
        for (const stale of ["999999999", "1", ""]) {
          const dataDirectory = yield* directory()
          yield* Effect.promise(() => fs.writeFile(`${dataDirectory}.lock`, stale))
          yield* Effect.scoped(
            Effect.gen(function* () {
              yield* DataDirectoryLock.hold(dataDirectory)
              expect(yield* Effect.promise(() => fs.readFile(`${dataDirectory}.lock`, "utf8"))).toBe(
                String(process.pid)
              )
            })
          )
        }
      })
  )
})
