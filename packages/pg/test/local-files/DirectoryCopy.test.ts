import { describe, expect, it } from "@effect/vitest"
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import * as DirectoryCopy from "../../src/local-files/DirectoryCopy.js"

/** Every path under `root` with what it is: a folder, a link's target, or a file's mode and content. */
const tree = async (root: string) => {
  const entries = await fs.readdir(root, { recursive: true, withFileTypes: true })
  const described = await Promise.all(
    entries.map(async (entry) => {
      const full = path.join(entry.parentPath, entry.name)
      const name = path.relative(root, full)
      if (entry.isDirectory()) return `${name}/`
      if (entry.isSymbolicLink()) return `${name} -> ${await fs.readlink(full)}`
      const mode = ((await fs.stat(full)).mode & 0o777).toString(8)
      return `${name} ${mode} ${await fs.readFile(full, "utf8")}`
    })
  )
  return described.sort()
}

describe("DirectoryCopy.copyTree", () => {
  it("copies nested and empty folders, files with their modes, and links, leaving the source alone", async () => {
    const parent = await fs.mkdtemp(path.join(os.tmpdir(), "vap-copy-"))
    const source = path.join(parent, "source")
    await fs.mkdir(path.join(source, "base", "5"), { recursive: true })
    await fs.mkdir(path.join(source, "pg_tblspc"))
    await fs.writeFile(path.join(source, "PG_VERSION"), "17\n", { mode: 0o600 })
    for (let i = 0; i < 40; i++) await fs.writeFile(path.join(source, "base", "5", String(i)), `page ${i}`)
    await fs.symlink("base/5", path.join(source, "current"))
    const before = await tree(source)
    await DirectoryCopy.copyTree(source, path.join(parent, "copy"))
    expect(await tree(path.join(parent, "copy"))).toEqual(before)
    expect(await tree(source)).toEqual(before)
    expect(before).toContain("pg_tblspc/")
    expect(before).toContain("PG_VERSION 600 17\n")
  })

  it("refuses a target that exists", async () => {
    const parent = await fs.mkdtemp(path.join(os.tmpdir(), "vap-copy-"))
    await fs.mkdir(path.join(parent, "source"))
    await fs.mkdir(path.join(parent, "copy"))
    await expect(
      DirectoryCopy.copyTree(path.join(parent, "source"), path.join(parent, "copy"))
    ).rejects.toThrow(/EEXIST/)
  })
})
