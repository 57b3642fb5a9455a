import { describe, expect, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import { dirname, relative, resolve } from "node:path"
import { fileURLToPath } from "node:url"

const src = fileURLToPath(new URL("../../src/", import.meta.url))

/** Every module a module reaches through its imports: the files of this package and the packages named. */
const importGraph = (entry: string) => {
  const files = new Set<string>()
  const packages = new Set<string>()
  const visit = (file: string) => {
    if (files.has(file)) return
    files.add(file)
    const text = readFileSync(file, "utf8")
    for (const match of text.matchAll(/^\s*(?:import|export)\b[^"']*?(?:from\s+)?["']([^"']+)["']/gm)) {
      const specifier = match[1]!
      if (specifier.startsWith(".")) visit(resolve(dirname(file), specifier.replace(/\.js$/, ".ts")))
      else packages.add(specifier)
    }
  }
  visit(resolve(src, entry))
  return { files: [...files].map((file) => relative(src, file)), packages: [...packages] }
}

describe("the typed client's imports", () => {
  it("reach the API definition only: no server, no storage, no PostgreSQL, no Node server", () => {
    const { files, packages } = importGraph("embedding/Client.ts")
    expect(files).toContain("Api.ts")
    expect(files.filter((file) => /Handlers\.ts$|^server\/|^storage\/|AppLayer/.test(file))).toEqual([])
    expect(
      packages.filter((name) =>
        /^(pg|@effect\/sql|@effect\/platform-node|@voice-agent-platform\/pg)\b/.test(name)
      )
    ).toEqual([])
  })
})
