import { describe, expect, it } from "@effect/vitest"
import { readdirSync, readFileSync } from "node:fs"
import { join, relative } from "node:path"
import { fileURLToPath } from "node:url"

const core = fileURLToPath(new URL("../../", import.meta.url))
const manifest = JSON.parse(readFileSync(join(core, "package.json"), "utf8")) as {
  readonly dependencies?: Record<string, string>
  readonly peerDependencies?: Record<string, string>
  readonly devDependencies?: Record<string, string>
}

/** Every TypeScript module under `directory`. */
const modules = (directory: string): ReadonlyArray<string> =>
  readdirSync(directory, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? modules(join(directory, entry.name))
      : entry.name.endsWith(".ts")
        ? [join(directory, entry.name)]
        : []
  )

/** The package a bare specifier names (`@scope/name/deep` → `@scope/name`, `name/deep` → `name`). */
const packageOf = (specifier: string) =>
  specifier.startsWith("@") ? specifier.split("/").slice(0, 2).join("/") : specifier.split("/")[0]!

/** Every non-relative specifier `file` imports or re-exports (type-only ones too: they are a dependency of its API). */
const importsOf = (file: string) =>
  [
    ...readFileSync(file, "utf8").matchAll(
      /^\s*(?:import|export)\s[^"';]*?from\s+["']([^"']+)["']|^\s*import\s+["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)/gm
    )
  ]
    .map((match) => (match[1] ?? match[2] ?? match[3])!)
    .filter((specifier) => !specifier.startsWith("."))

/**
 * Core is the pure domain: teams unit-test its rules in isolation and embed it anywhere. It speaks no HTTP
 * and no SQL (those are the http and pg packages' adapters of its ports) and needs nothing it does not
 * declare.
 */
describe("core's imports", () => {
  const found = modules(join(core, "src")).flatMap((file) =>
    importsOf(file).map((specifier) => ({ file: relative(core, file), specifier }))
  )

  it("reads every module of src", () => {
    expect(found.length).toBeGreaterThan(200)
    expect(found.some(({ specifier }) => specifier === "effect")).toBe(true)
  })

  it("loads no HTTP server or client, no SQL driver, no network module", () => {
    const forbidden =
      /^(@effect\/(platform|platform-node|sql|sql-pg|sql-sqlite-node)|pg|pg-.*|postgres|@electric-sql\/.*|express|fastify|hono|undici|ws|node:(http|https|http2|net|tls|dgram|dns|child_process|cluster|worker_threads))(\/|$)/
    expect(found.filter(({ specifier }) => forbidden.test(specifier))).toEqual([])
  })

  it("loads only effect and the packages core's package.json declares", () => {
    const declared = new Set([
      ...Object.keys(manifest.dependencies ?? {}),
      ...Object.keys(manifest.peerDependencies ?? {}),
      // types only (`import type … from "mdast"`): its `@types/` package
      ...Object.keys({ ...manifest.dependencies, ...manifest.devDependencies })
        .filter((name) => name.startsWith("@types/"))
        .map((name) => name.slice("@types/".length))
    ])
    expect(found.filter(({ specifier }) => !declared.has(packageOf(specifier)))).toEqual([])
  })
})
