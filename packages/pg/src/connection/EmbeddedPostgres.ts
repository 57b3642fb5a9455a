import { PGlite } from "@electric-sql/pglite"
import { PGLiteSocketServer } from "@electric-sql/pglite-socket"
import type { SqlClient, SqlError } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { Effect, Layer } from "effect"
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import * as DataDirectoryLock from "./DataDirectoryLock.js"
import { types } from "./PgConnection.js"

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
): Layer.Layer<
  PgClient.PgClient | SqlClient.SqlClient,
  SqlError.SqlError | DataDirectoryLock.EmbeddedDatabaseInUse
> =>
  Layer.unwrapScoped(
    Effect.gen(function* () {
      if (options.dataDirectory !== undefined) yield* DataDirectoryLock.hold(options.dataDirectory)
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
