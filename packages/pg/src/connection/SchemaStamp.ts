import { createRequire } from "node:module"
import * as fs from "node:fs/promises"
import { dirname, join } from "node:path"
import * as Migrations from "../migrations/Migrations.js"

/**
 * What a database made ahead of time (the embedded template, a migrated snapshot file) is stamped with,
 * so that one made by other code is never taken for current: the PGlite release that made it and the
 * schema versions applied to it.
 */

/** The PGlite release the running code uses; a database made by another one is not used. */
export const pgliteVersion = async (): Promise<string> => {
  const require = createRequire(import.meta.url)
  // PGlite's exports do not include its package.json: it is found next to its entry's folder.
  const entry = require.resolve("@electric-sql/pglite")
  const manifest = JSON.parse(await fs.readFile(join(dirname(entry), "..", "package.json"), "utf8"))
  return String(manifest.version)
}

/** The schema versions the code applies, one name a line: what a current database has applied. */
export const schemaVersions = (): string => Object.keys(Migrations.migrations).join("\n")
