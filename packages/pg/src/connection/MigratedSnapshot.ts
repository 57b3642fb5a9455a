import type { PGlite } from "@electric-sql/pglite"
import { Effect } from "effect"
import * as crypto from "node:crypto"
import * as fs from "node:fs/promises"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import * as Migrations from "../migrations/Migrations.js"
import * as PgliteClient from "./PgliteClient.js"
import { pgliteVersion, schemaVersions } from "./SchemaStamp.js"

/**
 * A new in-memory embedded database already migrated, without initdb. Opening an empty `memory://`
 * database runs initdb and the migrations: about 5–6 s, and about 9 s of processor time with PGlite's
 * compile, on a quiet two-core machine. So a process's migrated in-memory databases are all opened from
 * one snapshot of their files (`dumpDataDir`, a tarball of about 40 MB held for the life of the process),
 * each in about 1.3 s of processor time (`loadDataDir`), already at the code's schema versions.
 *
 * The snapshot comes from a file made ahead (`ensureFile`: the http tests' global setup makes it, about
 * 6 s once) when one made by the same PGlite release for the same schema versions is there, and is
 * otherwise made by the process the slow way. The file saves each test process the slow way: its first
 * database opens in about 2.5 s of processor time instead of about 9. It is never shipped nor written by a
 * server: `dist/migrated-snapshot` of this package is a test artifact outside the package's `files`.
 * Should making the snapshot fail, the database asked for fails to open with the same error (the next
 * one tries again).
 */

/** How a caller opens its in-memory database: empty, or from a snapshot's tarball. */
export type Open = (options: { readonly loadDataDir?: File | Blob }) => Promise<PGlite>

/** Applies every schema version to the open database, as a server starting on it would. */
export const migrate = (database: PGlite) =>
  Effect.runPromise(Effect.orDie(Migrations.run).pipe(Effect.provide(PgliteClient.layer(database))))

/** This package's folder. */
const packageRoot = () =>
  dirname(createRequire(import.meta.url).resolve("@voice-agent-platform/pg/package.json"))

/** Where snapshot files made ahead are kept: `dist/migrated-snapshot` of this package (not shipped). */
export const defaultFileLocation = (): string => join(packageRoot(), "dist", "migrated-snapshot")

/**
 * The file's name for the running code: a digest of the PGlite release, the schema versions and the
 * migrations' source files (so that editing a migration not yet released makes a new file, not a stale
 * schema). The package's `src/migrations`, whether this code runs from the source or compiled, so that
 * both name the same file. Fails where that folder cannot be read: then no file is used.
 */
const fileName = async () => {
  const migrations = join(packageRoot(), "src", "migrations")
  const digest = crypto.createHash("sha256").update(`${await pgliteVersion()}\n${schemaVersions()}\n`)
  for (const name of (await fs.readdir(migrations)).sort()) {
    digest.update(`${name}\n`).update(await fs.readFile(join(migrations, name)))
  }
  return digest.digest("hex").slice(0, 24) + ".tar"
}

/** The snapshot file made ahead for the running code, when there is one (written whole by a rename). */
const readMadeAhead = async (location: string): Promise<Blob | undefined> => {
  try {
    return new Blob([await fs.readFile(join(location, await fileName()))])
  } catch {
    return undefined
  }
}

/** Makes a snapshot the slow way: a new database (initdb), every migration, its files as a tarball. */
const make = async (open: Open) => {
  const database = await open({})
  try {
    await migrate(database)
    return await database.dumpDataDir("none")
  } finally {
    await database.close()
  }
}

interface Snapshot {
  readonly tarball: File | Blob
  readonly madeAhead: boolean
}

const made = new Map<string, Promise<Snapshot>>()

/**
 * The process's snapshot of a new migrated database: read from `location`'s file for the running code
 * when there is one (`madeAhead`), made the slow way otherwise; asked for first, shared by every later
 * call. `slowWay` skips the file.
 */
export const snapshot = (
  open: Open,
  location: string = defaultFileLocation(),
  slowWay = false
): Promise<Snapshot> => {
  let snapshotted = made.get(location)
  if (snapshotted === undefined) {
    snapshotted = (async () => {
      const kept = slowWay ? undefined : await readMadeAhead(location)
      return kept !== undefined
        ? { tarball: kept, madeAhead: true }
        : { tarball: await make(open), madeAhead: false }
    })().catch((error: unknown) => {
      made.delete(location)
      throw error
    })
    made.set(location, snapshotted)
  }
  return snapshotted
}

/**
 * Opens a new migrated database from the process's snapshot. Should a file made ahead not open (damaged,
 * or made by code that differs in a way its name does not tell), the process makes its snapshot the slow
 * way instead, once, and opens from that.
 */
export const openMigrated = async (open: Open, location: string = defaultFileLocation()): Promise<PGlite> => {
  const first = await snapshot(open, location)
  try {
    return await open({ loadDataDir: first.tarball })
  } catch (error) {
    if (!first.madeAhead) throw error
    const current = made.get(location)
    if (current !== undefined && (await current) === first) made.delete(location)
    return open({ loadDataDir: (await snapshot(open, location, true)).tarball })
  }
}

/**
 * Makes `location`'s snapshot file for the running code unless it is there (about 6 s), and removes the
 * files made for other code. Written beside and renamed into place, so a reader never sees half a file
 * and of two makers at once one file stays. Answers what it did.
 */
export const ensureFile = async (location: string = defaultFileLocation()): Promise<"made" | "current"> => {
  const name = await fileName()
  const path = join(location, name)
  const current = await fs.stat(path).then(
    () => true,
    () => false
  )
  if (!current) {
    const { PGlite } = await import("@electric-sql/pglite")
    const tarball = await make((options) => PGlite.create("memory://", options))
    await fs.mkdir(location, { recursive: true })
    const writing = `${path}.writing-${process.pid}-${crypto.randomBytes(6).toString("hex")}`
    try {
      await fs.writeFile(writing, new Uint8Array(await tarball.arrayBuffer()))
      await fs.rename(writing, path)
    } finally {
      await fs.rm(writing, { force: true })
    }
  }
  // Files made for other code go; so does what a maker stopped half-way left (an hour old).
  for (const entry of await fs.readdir(location)) {
    const other = join(location, entry)
    const abandoned =
      entry.includes(".writing-") &&
      (await fs.stat(other).then(
        (stat) => Date.now() - stat.mtimeMs > 3_600_000,
        () => false
      ))
    if ((entry !== name && entry.endsWith(".tar")) || abandoned) await fs.rm(other, { force: true })
  }
  return current ? "current" : "made"
}
