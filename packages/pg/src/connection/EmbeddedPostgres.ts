import type { SqlClient, SqlError } from "@effect/sql"
import { Effect, Layer } from "effect"
import * as fs from "node:fs/promises"
import { setFlagsFromString } from "node:v8"
import type { Lookups } from "../lookups/LookupCache.js"
import * as DataDirectoryLock from "./DataDirectoryLock.js"
import * as EmbeddedTemplate from "./EmbeddedTemplate.js"
import * as MigratedSnapshot from "./MigratedSnapshot.js"
import * as PgliteClient from "./PgliteClient.js"

export interface EmbeddedPostgresOptions {
  /** Where the database keeps its files; none keeps it in memory (gone when the process ends). */
  readonly dataDirectory?: string
  /**
   * In memory only: start at the code's schema versions instead of empty, from one snapshot a process
   * holds (`MigratedSnapshot`, read from a file made ahead when there is one): about 1.3 s of processor
   * time to open instead of initdb and the migrations. For suites that open many databases; `PgStorage`
   * then finds no version to apply. Default false.
   */
  readonly migrated?: boolean
}

/**
 * How much WebAssembly a function of PGlite runs before V8 compiles it again, optimised, on a background
 * thread (V8's `--wasm-tiering-budget`): ten times Node 20's default (1,800,000); Node 24's V8 already
 * defaults to 13,000,000, so there it changes little. Opening the database and the first statements run
 * a great deal of PostgreSQL's code once (start-up, catalog caches, first plans); with Node 20's default
 * most of it was compiled a second time, about 0.5 s of processor time during start-up, on the process's
 * one core when the machine is busy. Code that stays hot (the request path) still reaches the optimising
 * compiler, later. Set for the whole process (a V8 flag: every WebAssembly module of the process is
 * optimised later), once, before PGlite compiles its module: embedders are told so in docs/embedding.md.
 */
export const wasmTieringBudget = 18_000_000

/** Whether this process's V8 has been given `wasmTieringBudget` (by the first embedded database opened). */
let tieringBudgetSet = false

const setTieringBudget = () => {
  if (tieringBudgetSet) return
  tieringBudgetSet = true
  setFlagsFromString(`--wasm-tiering-budget=${wasmTieringBudget}`)
}

/**
 * PostgreSQL's buffer cache in the embedded database (`shared_buffers`, PostgreSQL's default 128MB). PGlite
 * zeroes the whole shared memory when it starts (about 0.1 s of processor time for 128MB) and keeps it
 * in the process's memory; a page not in the cache is read from the data directory through the
 * operating system's own cache.
 */
export const sharedBuffers = "32MB"

/**
 * An embedded PostgreSQL (PGlite: PostgreSQL compiled to WebAssembly) inside this process, reached through
 * the same SQL as a PostgreSQL server, by an `@effect/sql` client over PGlite's own query API
 * (`PgliteClient`): no socket in between. It also provides the lookup cache (`Lookups`).
 *
 * A new data directory starts from the template made at build time (`EmbeddedTemplate`) instead of
 * running initdb, when the package was built.
 *
 * PGlite is a single backend: transactions run one after another, as they would on one server
 * connection, and no statement of one transaction can interleave with another's. The database is closed
 * cleanly (a checkpoint) when the layer's scope ends.
 */
export const layer = (
  options: EmbeddedPostgresOptions = {}
): Layer.Layer<SqlClient.SqlClient | Lookups, SqlError.SqlError | DataDirectoryLock.EmbeddedDatabaseInUse> =>
  Layer.unwrapScoped(
    Effect.gen(function* () {
      if (options.dataDirectory !== undefined) yield* DataDirectoryLock.hold(options.dataDirectory)
      const database = yield* Effect.acquireRelease(
        Effect.promise(async () => {
          if (options.dataDirectory !== undefined) {
            // A new directory starts as a copy of the built template (no initdb) when there is one.
            await EmbeddedTemplate.seed(options.dataDirectory)
            await fs.mkdir(options.dataDirectory, { recursive: true })
          }
          setTieringBudget()
          // Loaded here, not with this module: a server on DATABASE_URL never reads PGlite's code.
          const { PGlite } = await import("@electric-sql/pglite")
          const open = (more: { readonly loadDataDir?: File | Blob }) =>
            PGlite.create(options.dataDirectory ?? "memory://", {
              startParams: [...PGlite.defaultStartParams, "-c", `shared_buffers=${sharedBuffers}`],
              // the client's type parsers, given once here rather than with every statement
              parsers: PgliteClient.parsers,
              ...more
            })
          return options.migrated === true && options.dataDirectory === undefined
            ? MigratedSnapshot.openMigrated(open)
            : open({})
        }),
        (db) => Effect.promise(() => db.close()).pipe(Effect.ignore)
      )
      return PgliteClient.layer(database)
    })
  )
