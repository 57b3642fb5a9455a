import type { PGlite } from "@electric-sql/pglite"
import { Effect } from "effect"
import * as Migrations from "../migrations/Migrations.js"
import * as PgliteClient from "./PgliteClient.js"

/**
 * A new in-memory embedded database already migrated, without initdb. Opening an empty `memory://`
 * database runs initdb (about 1.7 s of processor time) and the migrations take about 1 s more; a test
 * suite opens hundreds. So the first migrated in-memory database a process asks for is made the slow way
 * and its files are kept as a tarball (`dumpDataDir`, about 40 MB, held for the life of the process);
 * every later one is opened from it (`loadDataDir`, about 0.45 s), already at the code's schema versions.
 * Made once per process, on first use; should making it fail, the database asked for fails to open
 * with the same error (the next one tries again).
 */

let made: Promise<File | Blob> | undefined

/** Applies every schema version to the open database, as a server starting on it would. */
export const migrate = (database: PGlite) =>
  Effect.runPromise(Effect.orDie(Migrations.run).pipe(Effect.provide(PgliteClient.layer(database))))

/** The process's snapshot of a new migrated database: made by the first call, shared by every later one. */
export const snapshot = (
  open: (options: { readonly loadDataDir?: File | Blob }) => Promise<PGlite>
): Promise<File | Blob> => {
  made ??= (async () => {
    const database = await open({})
    try {
      await migrate(database)
      return await database.dumpDataDir("none")
    } finally {
      await database.close()
    }
  })().catch((error: unknown) => {
    made = undefined
    throw error
  })
  return made
}
