import { PGlite } from "@electric-sql/pglite"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import * as MigratedSnapshot from "../../src/connection/MigratedSnapshot.js"
import { schemaVersions } from "../../src/connection/SchemaStamp.js"

/**
 * The snapshot file made ahead: made once for the running code, kept while current, taken by a process
 * instead of the slow way (no initdb, no migration), and a process without it still gets its snapshot.
 */
let root = ""

beforeAll(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), "vap-snapshot-"))
})

afterAll(() => fs.rm(root, { recursive: true, force: true }))

/** An `open` that counts how it was asked: a snapshot from a file loads it, the slow way opens empty. */
const counting = () => {
  const asked = { empty: 0, loaded: 0 }
  const open = (options: { readonly loadDataDir?: File | Blob }) => {
    if (options.loadDataDir === undefined) asked.empty += 1
    else asked.loaded += 1
    return PGlite.create("memory://", options)
  }
  return { asked, open }
}

/** The migrations a database opened from the snapshot records, one name a line. */
const appliedIn = async (snapshot: Blob) => {
  const database = await PGlite.create("memory://", { loadDataDir: snapshot })
  try {
    const { rows } = await database.query<{ id: number; name: string }>(
      "SELECT migration_id AS id, name FROM schema_migrations ORDER BY migration_id"
    )
    return rows.map((row) => `${String(row.id).padStart(4, "0")}_${row.name}`).join("\n")
  } finally {
    await database.close()
  }
}

describe("the migrated snapshot file", () => {
  it("is made once for the running code, replaces a stale one, and a process opens from it without initdb", async () => {
    const location = path.join(root, "kept")
    await fs.mkdir(location, { recursive: true })
    await fs.writeFile(path.join(location, "0123456789abcdef01234567.tar"), "made by other code")

    expect(await MigratedSnapshot.ensureFile(location)).toBe("made")
    const files = await fs.readdir(location)
    expect(files).toHaveLength(1)
    expect(files[0]).toMatch(/^[0-9a-f]{24}\.tar$/)
    expect(await MigratedSnapshot.ensureFile(location)).toBe("current")

    const { asked, open } = counting()
    const snapshot = await MigratedSnapshot.snapshot(open, location)
    expect(asked).toEqual({ empty: 0, loaded: 0 })
    expect(snapshot.madeAhead).toBe(true)
    // asked again, the same snapshot: read once per process
    expect(await MigratedSnapshot.snapshot(open, location)).toBe(snapshot)
    expect(await appliedIn(snapshot.tarball)).toBe(schemaVersions())

    // a damaged file: the database still opens, from a snapshot made the slow way, once
    const damaged = path.join(root, "damaged")
    await fs.mkdir(damaged)
    await fs.writeFile(path.join(damaged, files[0]!), "not a tarball")
    const again = counting()
    for (let i = 0; i < 2; i++) {
      const database = await MigratedSnapshot.openMigrated(again.open, damaged)
      try {
        expect((await database.query("SELECT count(*)::int AS n FROM schema_migrations")).rows).toEqual([
          { n: schemaVersions().split("\n").length }
        ])
      } finally {
        await database.close()
      }
    }
    expect(again.asked).toEqual({ empty: 1, loaded: 3 })
  }, 120_000)

  it("without a file, a process makes its snapshot the slow way, once; a failed making is tried again", async () => {
    const failing = path.join(root, "failing")
    await expect(
      MigratedSnapshot.snapshot(() => Promise.reject(new Error("initdb failed")), failing)
    ).rejects.toThrow("initdb failed")
    const { asked, open } = counting()
    const location = failing
    const snapshot = await MigratedSnapshot.snapshot(open, location)
    expect(asked).toEqual({ empty: 1, loaded: 0 })
    expect(snapshot.madeAhead).toBe(false)
    expect(await MigratedSnapshot.snapshot(open, location)).toBe(snapshot)
    expect(asked.empty).toBe(1)
    expect(await appliedIn(snapshot.tarball)).toBe(schemaVersions())
  }, 120_000)
})
