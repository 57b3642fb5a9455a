import { describe, expect, it } from "@effect/vitest"
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import * as GroupContext from "../../src/handler-context/GroupContext.js"

const packages = fileURLToPath(new URL("../../../", import.meta.url))

/** Every .ts file under a folder, with its path. */
const sources = (folder: string): ReadonlyArray<{ readonly path: string; readonly text: string }> =>
  readdirSync(folder, { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(".ts"))
    .map((name) => ({ path: join(folder, name), text: readFileSync(join(folder, name), "utf8") }))

/** Every package's src folder. */
const packageSources = readdirSync(packages, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .flatMap((entry) => {
    try {
      return sources(join(packages, entry.name, "src"))
    } catch {
      return [] // a package without src
    }
  })

/** `class X extends Context.Reference<X>()("key", …`: the class's name and key. */
const referencePattern = /class\s+(\w+)\s+extends\s+Context\.Reference<\w+>\(\)\(\s*"([^"]+)"/g

describe("GroupContext.everyGroupGets", () => {
  it("holds every Context.Reference declared in the packages' sources", () => {
    const declared = packageSources.flatMap(({ path, text }) => {
      const found = [...text.matchAll(referencePattern)].map((match) => ({
        path,
        name: match[1] ?? "",
        key: match[2] ?? ""
      }))
      // every declaration is one the pattern reads (none written in a shape it misses)
      expect({ path, declarations: found.length }).toEqual({
        path,
        declarations: text.split("Context.Reference<").length - 1
      })
      return found
    })
    // the scan finds what it should (core's settings and the server's)
    expect(declared.map(({ name }) => name)).toEqual(expect.arrayContaining(["Quotas", "PublicBaseUrl"]))
    const kept = new Set(GroupContext.everyGroupGets.map((tag) => tag.key))
    const missing = declared.filter(({ key }) => !kept.has(key)).map(({ name, path }) => `${name} (${path})`)
    expect(missing).toEqual([])
  })

  it("is not bypassed: no handler file looks a service up with Effect.serviceOption", () => {
    const handlerFiles = sources(join(packages, "http", "src")).filter(({ path }) =>
      path.endsWith("Handlers.ts")
    )
    expect(handlerFiles.length).toBeGreaterThan(10)
    // a service a handler reads as an option is not in its group's type: `builtWith` would drop it silently
    const optional = handlerFiles
      .filter(({ text }) => text.includes("Effect.serviceOption("))
      .map(({ path }) => path)
    expect(optional).toEqual([])
  })
})
