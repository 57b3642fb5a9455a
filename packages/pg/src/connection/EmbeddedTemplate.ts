import * as crypto from "node:crypto"
import * as fs from "node:fs/promises"
import { createRequire } from "node:module"
import { dirname, join, relative } from "node:path"
import * as DirectoryCopy from "../local-files/DirectoryCopy.js"
import { migrate } from "./MigratedSnapshot.js"
import { pgliteVersion, schemaVersions } from "./SchemaStamp.js"

/**
 * A new embedded data directory without initdb. PGlite runs initdb (5–6 s, 10+ s on a loaded machine) the
 * first time it opens an empty directory. A template is that same directory made once, at build time
 * (`npm run build`, `scripts/make-embedded-template.js`), by PGlite itself the slow way and closed cleanly;
 * a new data directory is a copy of it (a few tens of milliseconds), and PGlite then opens it as an
 * existing one. The template is already migrated to the schema versions of the code that built it (its
 * `schema_migrations` records them), so a server starting on a copy runs only versions added since (none
 * normally; about 130 statements otherwise). Nothing is downloaded: without a
 * template (the package was not built, or was built with another PGlite) PGlite runs initdb as before.
 *
 * `PGlite.create({ loadDataDir })` (a `dumpDataDir` tarball) was measured as the other way: it writes
 * every file through PGlite's in-WebAssembly file system, 2.7 s against 1.2 s for a copy and a resume on
 * the same machine, so the copy is made with Node's file system instead.
 */

/**
 * Where the built template lives: `dist/embedded-template` of this package (`pgdata`, `pglite-version`,
 * `schema-versions`, the migrations applied to it, and `folders.json`, every folder of `pgdata`). It is
 * shipped in the package (`files`).
 */
export const defaultLocation = (): string => {
  const require = createRequire(import.meta.url)
  return join(dirname(require.resolve("@voice-agent-platform/pg/package.json")), "dist", "embedded-template")
}

export { pgliteVersion, schemaVersions } from "./SchemaStamp.js"

const exists = (path: string) =>
  fs.stat(path).then(
    () => true,
    () => false
  )

/**
 * Whether `location` holds a template a new data directory can be copied from: made by the PGlite release
 * in use. Its schema may be behind the code's (a server runs the versions it lacks, as on any database).
 */
export const isUsable = async (location: string = defaultLocation()): Promise<boolean> => {
  const made = await fs.readFile(join(location, "pglite-version"), "utf8").catch(() => undefined)
  return (
    made?.trim() === (await pgliteVersion()) &&
    (await exists(join(location, "pgdata", "PG_VERSION"))) &&
    (await exists(join(location, "folders.json")))
  )
}

/** Whether `location` holds a usable template migrated to every version the code has (the build's check). */
export const isCurrent = async (location: string = defaultLocation()): Promise<boolean> => {
  const versions = await fs.readFile(join(location, "schema-versions"), "utf8").catch(() => undefined)
  return versions === schemaVersions() && (await isUsable(location))
}

/**
 * Makes the template at `location` unless a current one is there: PGlite creates a data directory (initdb),
 * the migrations run on it, and it is closed (a checkpoint, no lock file left); it is then moved into place in one rename, so a build
 * stopped half-way leaves no half template, and of two builds at once the first one's template stays.
 */
export const ensure = async (location: string = defaultLocation()): Promise<"made" | "current"> => {
  if (await isCurrent(location)) return "current"
  const building = `${location}.building-${process.pid}-${crypto.randomBytes(6).toString("hex")}`
  await fs.rm(building, { recursive: true, force: true })
  await fs.mkdir(building, { recursive: true })
  const { PGlite } = await import("@electric-sql/pglite")
  const database = await PGlite.create(join(building, "pgdata"))
  try {
    await migrate(database)
  } finally {
    await database.close()
  }
  // Every folder, so that a copy has the empty ones PostgreSQL needs even where they were lost (npm pack
  // keeps no empty folder).
  const entries = await fs.readdir(join(building, "pgdata"), { recursive: true, withFileTypes: true })
  const folders = entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => relative(join(building, "pgdata"), join(entry.parentPath, entry.name)))
  await fs.writeFile(join(building, "folders.json"), JSON.stringify(folders.sort()))
  await fs.writeFile(join(building, "schema-versions"), schemaVersions())
  await fs.writeFile(join(building, "pglite-version"), await pgliteVersion())
  try {
    await fs.rename(building, location)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code !== "ENOTEMPTY" && code !== "EEXIST") throw error
    // Another build made one meanwhile: a current one is kept (a server may be copying it), a stale one replaced.
    if (await isCurrent(location)) {
      await fs.rm(building, { recursive: true, force: true })
      return "current"
    }
    await fs.rm(location, { recursive: true, force: true })
    await fs.rename(building, location)
  }
  return "made"
}

const isEmptyOrMissing = async (directory: string) => {
  const entries = await fs.readdir(directory).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return []
    throw error
  })
  return entries.length === 0
}

/**
 * Gives a new data directory the template's files: copied beside it, then renamed into place (a copy
 * stopped half-way is never taken for a database; the next start copies again). Leaves alone a
 * directory that holds anything (an existing database is opened as it is), and answers what it did. The
 * caller holds the directory's lock (`DataDirectoryLock`), so no other server copies at the same time.
 */
export const seed = async (
  dataDirectory: string,
  location: string = defaultLocation()
): Promise<"copied" | "not new" | "no template"> => {
  if (!(await isEmptyOrMissing(dataDirectory))) return "not new"
  if (!(await isUsable(location))) return "no template"
  await fs.mkdir(dirname(dataDirectory), { recursive: true })
  const copying = `${dataDirectory}.copying-${crypto.randomBytes(6).toString("hex")}`
  try {
    await DirectoryCopy.copyTree(join(location, "pgdata"), copying)
    const folders: ReadonlyArray<string> = JSON.parse(
      await fs.readFile(join(location, "folders.json"), "utf8")
    )
    for (const folder of folders) await fs.mkdir(join(copying, folder), { recursive: true })
  } catch {
    // The template went away while it was copied (a build replacing a stale one): PGlite runs initdb.
    await fs.rm(copying, { recursive: true, force: true })
    return "no template"
  }
  try {
    await fs.rm(dataDirectory, { recursive: true, force: true })
    await fs.rename(copying, dataDirectory)
  } finally {
    await fs.rm(copying, { recursive: true, force: true })
  }
  return "copied"
}
