import { PGlite } from "@electric-sql/pglite"
import { PGLiteSocketServer } from "@electric-sql/pglite-socket"
import type { SqlClient, SqlError } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { Data, Effect, Layer } from "effect"
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import { types } from "./PgConnection.js"

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

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM"
  }
}

/**
 * Holds `<dataDirectory>.lock` (this process's id) while the database is open, so that a second server on
 * the same directory stops instead of corrupting it. A lock left by a process that is gone (killed) is
 * taken over.
 */
const holdLock = (dataDirectory: string) => {
  const lockFile = `${dataDirectory}.lock`
  const take = Effect.tryPromise({
    try: async () => {
      await fs.mkdir(path.dirname(lockFile), { recursive: true })
      for (;;) {
        try {
          await fs.writeFile(lockFile, String(process.pid), { flag: "wx" })
          return
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error
        }
        const holder = Number((await fs.readFile(lockFile, "utf8").catch(() => "")).trim())
        if (Number.isSafeInteger(holder) && holder > 0 && holder !== process.pid && isAlive(holder)) {
          throw new EmbeddedDatabaseInUse({ dataDirectory, pid: holder })
        }
        await fs.rm(lockFile, { force: true })
      }
    },
    catch: (error) => (error instanceof EmbeddedDatabaseInUse ? error : new Error(String(error)))
  }).pipe(
    Effect.catchIf(
      (error): error is Error => !(error instanceof EmbeddedDatabaseInUse),
      (error) => Effect.die(error)
    )
  )
  return Effect.acquireRelease(take, () => Effect.promise(() => fs.rm(lockFile, { force: true })))
}

export interface EmbeddedPostgresOptions {
  /** Where the database keeps its files; none keeps it in memory (gone when the process ends). */
  readonly dataDirectory?: string
}

/**
 * An embedded PostgreSQL (PGlite: PostgreSQL compiled to WebAssembly) inside this process, reached through
 * the same client and the same SQL as a PostgreSQL server.
 *
 * PGlite is a single backend, so it is served over a Unix socket (in a private temporary directory) to a
 * pool of exactly one connection: transactions run one after another, as they would on one server
 * connection, and no statement of one transaction can interleave with another's. The database is closed
 * cleanly (a checkpoint) when the layer's scope ends.
 */
export const layer = (
  options: EmbeddedPostgresOptions = {}
): Layer.Layer<PgClient.PgClient | SqlClient.SqlClient, SqlError.SqlError | EmbeddedDatabaseInUse> =>
  Layer.unwrapScoped(
    Effect.gen(function* () {
      if (options.dataDirectory !== undefined) yield* holdLock(options.dataDirectory)
      const database = yield* Effect.acquireRelease(
        Effect.promise(async () => {
          if (options.dataDirectory !== undefined) await fs.mkdir(options.dataDirectory, { recursive: true })
          return PGlite.create(options.dataDirectory ?? "memory://")
        }),
        (db) => Effect.promise(() => db.close()).pipe(Effect.ignore)
      )
      const socketDirectory = yield* Effect.acquireRelease(
        Effect.promise(() => fs.mkdtemp(path.join(os.tmpdir(), "vap-pglite-"))),
        (directory) => Effect.promise(() => fs.rm(directory, { recursive: true, force: true }))
      )
      const port = 5432
      yield* Effect.acquireRelease(
        Effect.promise(async () => {
          const server = new PGLiteSocketServer({
            db: database,
            path: path.join(socketDirectory, `.s.PGSQL.${port}`),
            maxConnections: 1
          })
          await server.start()
          return server
        }),
        (server) => Effect.promise(() => server.stop()).pipe(Effect.ignore)
      )
      return PgClient.layer({
        host: socketDirectory,
        port,
        database: "postgres",
        username: "postgres",
        maxConnections: 1,
        applicationName: "voice-agent-platform",
        types
      })
    })
  )
