import { describe, expect, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import { builtinModules } from "node:module"
import { dirname, relative, resolve } from "node:path"
import { fileURLToPath } from "node:url"

const packages = fileURLToPath(new URL("../../../", import.meta.url))
const workspacePackage = /^@voice-agent-platform\/(core|contract|http|pg)\/(.+)\.js$/

/**
 * Every module a module loads at run time, following relative imports and the workspace's deep imports
 * (`@voice-agent-platform/core/agents/Agent.js` is core's `src/agents/Agent.ts`); type-only imports are
 * erased by the compiler and not followed. Returns the files reached (relative to `packages/`) and every
 * other specifier imported, with the file that imports it.
 */
const importGraph = (entry: string) => {
  const files = new Set<string>()
  const specifiers = new Map<string, string>()
  const visit = (file: string) => {
    if (files.has(file)) return
    files.add(file)
    const text = readFileSync(file, "utf8")
    const statements =
      /^\s*(?:import|export)\s[^"';]*?from\s+["']([^"']+)["']|^\s*import\s+["']([^"']+)["']/gm
    for (const match of text.matchAll(statements)) {
      if (/^\s*(?:import|export)\s+type\s/.test(match[0])) continue
      const specifier = (match[1] ?? match[2])!
      const deep = workspacePackage.exec(specifier)
      if (specifier.startsWith(".")) visit(resolve(dirname(file), specifier.replace(/\.js$/, ".ts")))
      else if (deep) visit(resolve(packages, deep[1]!, "src", `${deep[2]}.ts`))
      else if (!specifiers.has(specifier)) specifiers.set(specifier, relative(packages, file))
    }
  }
  visit(resolve(packages, entry))
  return { files: [...files].map((file) => relative(packages, file)), specifiers: [...specifiers.keys()] }
}

const nodeBuiltIn = (specifier: string) =>
  specifier.startsWith("node:") || builtinModules.includes(specifier.split("/")[0]!)

/** The packages a browser-safe module may load: Effect, its platform package, and the phone-number library. */
const browserSafe = (specifier: string) =>
  /^(effect|@effect\/platform|libphonenumber-js)(\/|$)/.test(specifier)

/** A core module that declares a service, a port or a layer (something that runs, not a schema). */
const declaresService = (file: string) =>
  /Context\.(Tag|GenericTag|Reference)|Effect\.Service|\bLayer\./.test(
    readFileSync(resolve(packages, file), "utf8")
  )

describe("the contract package and its typed client", () => {
  for (const entry of ["contract/src/index.ts", "contract/src/client/Client.ts"]) {
    it(`${entry} loads no Node built-in, no server, no storage, no core service`, () => {
      const { files, specifiers } = importGraph(entry)
      expect(files).toContain("contract/src/Api.ts")
      // only the contract itself and core's pure schemas
      expect(files.filter((file) => !/^(contract|core)\/src\//.test(file))).toEqual([])
      expect(files.filter((file) => file.startsWith("core/") && declaresService(file))).toEqual([])
      expect(specifiers.filter(nodeBuiltIn)).toEqual([])
      expect(specifiers.filter((specifier) => !browserSafe(specifier))).toEqual([])
    })
  }

  it("declares no PostgreSQL, SQL, Node platform or server package among its dependencies", () => {
    const manifest = JSON.parse(readFileSync(resolve(packages, "contract/package.json"), "utf8")) as {
      dependencies?: Record<string, string>
      peerDependencies?: Record<string, string>
    }
    const declared = [
      ...Object.keys(manifest.dependencies ?? {}),
      ...Object.keys(manifest.peerDependencies ?? {})
    ]
    expect(
      declared.filter((name) =>
        /^(pg|@effect\/sql|@effect\/platform-node|@voice-agent-platform\/(http|pg))/.test(name)
      )
    ).toEqual([])
    // and every package its modules load is declared (by it, or by core for core's own modules)
    const core = JSON.parse(readFileSync(resolve(packages, "core/package.json"), "utf8")) as typeof manifest
    const available = [
      ...declared,
      ...Object.keys(core.dependencies ?? {}),
      ...Object.keys(core.peerDependencies ?? {})
    ]
    const { specifiers } = importGraph("contract/src/index.ts")
    expect(
      specifiers.filter(
        (specifier) => !available.some((name) => specifier === name || specifier.startsWith(`${name}/`))
      )
    ).toEqual([])
  })

  it("the walk sees what the server loads: Node built-ins and core services (so the checks above can fail)", () => {
    const { files, specifiers } = importGraph("http/src/server/main.ts")
    expect(specifiers.filter(nodeBuiltIn)).not.toEqual([])
    expect(specifiers).toContain("@voice-agent-platform/core")
    expect(files.filter((file) => file.startsWith("http/src/"))).toContain("http/src/AppLayer.ts")
    const { files: eventFiles } = importGraph("core/src/calls/CallEvents.ts")
    expect(eventFiles.filter(declaresService)).not.toEqual([])
  })
})
