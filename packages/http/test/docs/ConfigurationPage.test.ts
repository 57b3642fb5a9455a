import { describe, expect, it } from "@effect/vitest"
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs"
import { join, relative } from "node:path"
import { fileURLToPath } from "node:url"

const root = fileURLToPath(new URL("../../../../", import.meta.url))
const page = readFileSync(join(root, "docs/configuration.md"), "utf8")

/** Source files of the workspace: packages (sources, test support, tests), examples, benches and the root's configuration (`vitest.config.ts`). */
const sourceFiles = (): ReadonlyArray<string> => {
  const files: Array<string> = []
  const walk = (directory: string) => {
    for (const name of readdirSync(directory)) {
      if (["node_modules", "dist", "build"].includes(name) || name.startsWith(".")) continue
      const path = join(directory, name)
      if (statSync(path).isDirectory()) walk(path)
      else if (/\.(ts|mts|js|mjs)$/.test(name)) files.push(path)
    }
  }
  for (const folder of ["packages", "examples", "bench"]) {
    if (existsSync(join(root, folder))) walk(join(root, folder))
  }
  for (const name of readdirSync(root)) {
    if (/\.(ts|mts|js|mjs)$/.test(name) && statSync(join(root, name)).isFile()) files.push(join(root, name))
  }
  return files
}

/**
 * The environment variables a text reads: `process.env.NAME`, `process.env["NAME"]`, an Effect `Config`
 * constructor's name (`Config.integer("PORT")`, `Config.literal("a", "b")("NAME")`), and a
 * NAME_WITH_UNDERSCORES handed first (or alone) to a helper that makes the `Config`
 * (`secondsConfig("HEADERS_TIMEOUT_SECONDS", ...)`, `price("LLM_PRICE_PLN_PER_MTOK_IN")`) in a file that
 * uses `Config`.
 */
const variablesRead = (text: string): ReadonlyArray<string> => {
  const patterns = [
    /process\.env\.([A-Z][A-Z0-9_]*)/g,
    /process\.env\[\s*["']([A-Z][A-Z0-9_]*)["']\s*\]/g,
    /\bConfig\.\w+\(\s*["']([A-Z][A-Z0-9_]*)["']/g,
    /\bConfig\.literal\([^()]*\)\(\s*["']([A-Z][A-Z0-9_]*)["']/g,
    // the benches' bounded settings: `setting("BENCH_CHATS", 50, 500)`
    /\bsetting\(\s*["']([A-Z][A-Z0-9_]*)["']/g,
    ...(/\bConfig\.\w+\(/.test(text) ? [/\(\s*["']([A-Z][A-Z0-9]*_[A-Z0-9_]+)["']\s*[,)]/g] : [])
  ]
  // a name made from a template (`OAUTH_${provider}_CLIENT_ID`) is listed with a placeholder: OAUTH_<>_CLIENT_ID
  const templated = [...text.matchAll(/\bConfig\.\w+\(\s*`([A-Z][A-Z0-9_]*)\$\{[^}]*\}([A-Z0-9_]*)`/g)].map(
    (match) => `${match[1]}<>${match[2]}`
  )
  return [
    ...new Set([
      ...patterns.flatMap((pattern) => [...text.matchAll(pattern)].map((match) => match[1]!)),
      ...templated
    ])
  ]
}

/** The variables the page lists: the first column of its tables (a placeholder such as `<PROVIDER>` as `<>`). */
const listed = new Set(
  [...page.matchAll(/^\|\s*`([A-Z][A-Z0-9_]*(?:<[A-Z]+>[A-Z0-9_]*)?)`\s*\|/gm)].map((match) =>
    match[1]!.replace(/<[A-Z]+>/, "<>")
  )
)

describe("docs/configuration.md", () => {
  it("finds what the code reads", () => {
    expect(
      variablesRead(`Config.integer("PORT"); process.env.FUZZ_SEED; quota("QUOTA_DOCUMENTS", 1)`)
    ).toEqual(["FUZZ_SEED", "PORT", "QUOTA_DOCUMENTS"])
    expect(
      variablesRead(
        `Config.literal("embedded", "openai")("LLM_PROVIDER"); price("LLM_PRICE_PLN_PER_MTOK_IN")`
      )
    ).toEqual(["LLM_PROVIDER", "LLM_PRICE_PLN_PER_MTOK_IN"])
    expect(variablesRead(`Schema.Literal("GET"); encode("UTF8")`)).toEqual([])
    expect(
      variablesRead("Config.option(Config.nonEmptyString(`OAUTH_${p.toUpperCase()}_CLIENT_ID`))")
    ).toEqual(["OAUTH_<>_CLIENT_ID"])
    // an error code in a file that makes no Config is not a variable
    expect(variablesRead(`expect(code("HPE_HEADER_OVERFLOW", 1))`)).toEqual([])
  })

  it("lists every environment variable the code reads, and only those", () => {
    const readBy = new Map<string, string>()
    for (const file of sourceFiles().filter((file) => file !== fileURLToPath(import.meta.url))) {
      for (const name of variablesRead(readFileSync(file, "utf8"))) readBy.set(name, relative(root, file))
    }
    const missing = [...readBy]
      .filter(([name]) => !listed.has(name))
      .map(([name, file]) => `${name} (${file})`)
    expect(missing).toEqual([])
    // the CI script's variables are listed too; anything else on the page must be read somewhere
    const ci = readFileSync(join(root, ".ci/run"), "utf8")
    const stale = [...listed].filter((name) => !readBy.has(name) && !ci.includes(`\${${name}`))
    expect(stale).toEqual([])
  })
})
