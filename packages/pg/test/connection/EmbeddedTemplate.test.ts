import { PGlite } from "@electric-sql/pglite"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import * as EmbeddedPostgres from "../../src/connection/EmbeddedPostgres.js"
import * as EmbeddedTemplate from "../../src/connection/EmbeddedTemplate.js"
import * as Migrations from "../../src/migrations/Migrations.js"

/**
 * A new data directory copied from the template must be the database PGlite makes the slow way (initdb and
 * every migration): the same schema, settings and recorded versions, with no migration left to run.
 */
let root = ""
let template = ""

beforeAll(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), "vap-template-"))
  template = path.join(root, "template")
  expect(await EmbeddedTemplate.ensure(template)).toBe("made")
}, 180_000)

afterAll(() => fs.rm(root, { recursive: true, force: true }))

/** Every file and folder under `directory`, relative, sorted. */
const filesUnder = async (directory: string) =>
  (await fs.readdir(directory, { recursive: true })).map(String).sort()

/** What a database is, as text: tables, columns, indexes, constraints, functions, triggers, settings, versions. */
const fingerprint = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ readonly line: string }>`
    SELECT 'column ' || table_name || '.' || column_name || ' ' || data_type || ' ' || is_nullable || ' ' ||
      coalesce(column_default, '') AS line
    FROM information_schema.columns WHERE table_schema = 'public'
    UNION ALL SELECT 'index ' || indexdef FROM pg_indexes WHERE schemaname = 'public'
    UNION ALL SELECT 'constraint ' || conrelid::regclass::text || ' ' || conname || ' ' || pg_get_constraintdef(oid)
    FROM pg_constraint WHERE connamespace = 'public'::regnamespace
    UNION ALL SELECT 'function ' || p.oid::regprocedure::text || ' ' || md5(pg_get_functiondef(p.oid))
    FROM pg_proc p WHERE p.pronamespace = 'public'::regnamespace
    UNION ALL SELECT 'trigger ' || pg_get_triggerdef(oid) FROM pg_trigger WHERE NOT tgisinternal
    UNION ALL SELECT 'extension ' || extname || ' ' || extversion FROM pg_extension
    UNION ALL SELECT 'database ' || datname || ' ' || pg_encoding_to_char(encoding) || ' ' || datcollate || ' ' ||
      datctype FROM pg_database
    UNION ALL SELECT 'setting ' || name || '=' || setting FROM pg_settings
    WHERE name IN ('server_encoding', 'lc_collate', 'lc_ctype', 'TimeZone', 'DateStyle', 'max_connections',
      'shared_buffers', 'wal_level', 'fsync', 'server_version_num', 'default_text_search_config')
    UNION ALL SELECT 'migration ' || migration_id || ' ' || name FROM schema_migrations
    UNION ALL SELECT 'relations ' || count(*) FROM pg_class
  `
  return rows.map((row) => row.line).sort()
})

/** Opens the data directory as the server does (EmbeddedPostgres), runs the migrations: what they applied, and the fingerprint. */
const migratedFingerprint = (dataDirectory: string) =>
  Effect.runPromise(
    Effect.zipWith(Migrations.run, fingerprint, (applied, lines) => ({ applied, lines })).pipe(
      Effect.provide(EmbeddedPostgres.layer({ dataDirectory })),
      Effect.scoped
    )
  )

describe("EmbeddedTemplate", () => {
  it("copies into a new data directory the database initdb and the migrations make, with nothing left to run", async () => {
    const copied = path.join(root, "copied", "postgres")
    const slow = path.join(root, "slow", "postgres")
    expect(await EmbeddedTemplate.seed(copied, template)).toBe("copied")
    // The slow way: PGlite runs initdb in the empty directory, then the server's migrations run.
    await fs.mkdir(slow, { recursive: true })
    await (await PGlite.create(slow)).close()
    expect((await filesUnder(copied)).length).toBeGreaterThan(500)
    expect(await fs.readFile(path.join(copied, "PG_VERSION"), "utf8")).toBe(
      await fs.readFile(path.join(slow, "PG_VERSION"), "utf8")
    )
    const [fromTemplate, fromInitdb] = [await migratedFingerprint(copied), await migratedFingerprint(slow)]
    // The copy was migrated already: the server's run applied nothing to it, everything to the other.
    expect(fromTemplate.applied).toStrictEqual([])
    expect(fromInitdb.applied.length).toBe(Object.keys(Migrations.migrations).length)
    expect(fromTemplate.lines).toStrictEqual(fromInitdb.lines)
    expect(fromTemplate.lines).toContain("migration 8 campaign_tallies")
    expect(fromTemplate.lines.filter((line) => line.startsWith("column ")).length).toBeGreaterThan(100)
    expect(await fs.readFile(path.join(template, "schema-versions"), "utf8")).toBe(
      Object.keys(Migrations.migrations).join("\n")
    )
    // Nothing of the copy is left beside the directory.
    expect((await fs.readdir(path.dirname(copied))).sort()).toStrictEqual(["postgres"])
  }, 240_000)

  it("is not current once the code has a version the template lacks (the build makes it again), yet new directories are still copied from it", async () => {
    const behind = path.join(root, "behind")
    await fs.cp(template, behind, { recursive: true })
    const versions = Object.keys(Migrations.migrations)
    await fs.writeFile(path.join(behind, "schema-versions"), versions.slice(0, -1).join("\n"))
    expect(await EmbeddedTemplate.isCurrent(behind)).toBe(false)
    expect(await EmbeddedTemplate.isUsable(behind)).toBe(true)
    expect(await EmbeddedTemplate.seed(path.join(root, "from-behind"), behind)).toBe("copied")
    expect(await EmbeddedTemplate.ensure(behind)).toBe("made")
    expect(await EmbeddedTemplate.isCurrent(behind)).toBe(true)
  }, 240_000)

  it("gives a complete directory from a template that lost its empty folders (npm pack keeps none)", async () => {
    const packed = path.join(root, "packed")
    await fs.cp(template, packed, { recursive: true })
    const emptyFolders = async () => {
      const entries = await fs.readdir(path.join(packed, "pgdata"), { recursive: true, withFileTypes: true })
      const folders = entries.filter((entry) => entry.isDirectory())
      const empty = await Promise.all(
        folders.map(async (entry) => {
          const at = path.join(entry.parentPath, entry.name)
          return (await fs.readdir(at)).length === 0 ? [at] : []
        })
      )
      return empty.flat()
    }
    for (let left = await emptyFolders(); left.length > 0; left = await emptyFolders())
      for (const folder of left) await fs.rmdir(folder)
    const [fromPacked, fromTemplate] = [path.join(root, "from-packed"), path.join(root, "from-template")]
    expect(await EmbeddedTemplate.seed(fromPacked, packed)).toBe("copied")
    expect(await EmbeddedTemplate.seed(fromTemplate, template)).toBe("copied")
    const files = await filesUnder(fromTemplate)
    expect(files).toContain("pg_tblspc")
    expect(await filesUnder(fromPacked)).toStrictEqual(files)
  })

  it("leaves a directory with anything in it alone, and copies into an empty one", async () => {
    const existing = path.join(root, "existing")
    await fs.mkdir(existing, { recursive: true })
    await fs.writeFile(path.join(existing, "something"), "kept")
    expect(await EmbeddedTemplate.seed(existing, template)).toBe("not new")
    expect(await fs.readdir(existing)).toStrictEqual(["something"])
    const empty = path.join(root, "empty")
    await fs.mkdir(empty)
    expect(await EmbeddedTemplate.seed(empty, template)).toBe("copied")
    expect(await fs.readdir(empty)).toContain("PG_VERSION")
  })

  it("is made once by two builds at once: both end, and one template is there, current", async () => {
    const location = path.join(root, "twice")
    const results = await Promise.all([EmbeddedTemplate.ensure(location), EmbeddedTemplate.ensure(location)])
    expect(results).toContain("made")
    expect(await EmbeddedTemplate.isCurrent(location)).toBe(true)
    expect((await fs.readdir(root)).filter((name) => name.startsWith("twice"))).toStrictEqual(["twice"])
  }, 240_000)

  it("is not used when missing, or made by another PGlite release; ensure then makes it again", async () => {
    expect(await EmbeddedTemplate.seed(path.join(root, "none"), path.join(root, "no-template"))).toBe(
      "no template"
    )
    const stale = path.join(root, "stale")
    await fs.cp(template, stale, { recursive: true })
    await fs.writeFile(path.join(stale, "pglite-version"), "0.0.1")
    expect(await EmbeddedTemplate.isCurrent(stale)).toBe(false)
    expect(await EmbeddedTemplate.seed(path.join(root, "not-seeded"), stale)).toBe("no template")
    expect(await EmbeddedTemplate.ensure(template)).toBe("current")
  })
})
