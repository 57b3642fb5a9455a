import { HttpClient, HttpClientRequest } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { execFile } from "node:child_process"
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import openapiTS, { astToString } from "openapi-typescript"
import ts from "typescript"
import { send, TestServer } from "../support/TestServer.js"

const require = createRequire(import.meta.url)
const redocly = require.resolve("@redocly/cli/bin/cli.js")
const script = fileURLToPath(new URL("./generated-client/use-api.ts", import.meta.url))

/** The document as the server serves it. */
const servedDocument = Effect.gen(function* () {
  const client = yield* HttpClient.HttpClient
  const response = yield* send(client, HttpClientRequest.get("/api/v1/public-openapi.json"))
  expect(response.status).toBe(200)
  return response.body as Record<string, unknown>
}).pipe(Effect.provide(TestServer))

/** A folder outside the workspace for the test's files, removed afterwards. */
const scratch = Effect.acquireRelease(
  Effect.sync(() => mkdtempSync(join(tmpdir(), "vap-openapi-"))),
  (directory) => Effect.sync(() => rmSync(directory, { recursive: true, force: true }))
)

/** TypeScript's diagnostics of a strict, no-emit compilation of one file, as text. */
const typeErrors = (file: string): ReadonlyArray<string> => {
  const program = ts.createProgram([file], {
    strict: true,
    exactOptionalPropertyTypes: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    lib: ["lib.es2022.d.ts", "lib.dom.d.ts"],
    types: []
  })
  return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"))
}

describe("the OpenAPI document, as tools from npm read it", () => {
  it.scoped("passes Redocly CLI's recommended rules with no error", () =>
    Effect.gen(function* () {
      const document = yield* servedDocument
      const directory = yield* scratch
      writeFileSync(join(directory, "openapi.json"), JSON.stringify(document))
      const { stdout } = yield* Effect.promise(() =>
        promisify(execFile)(
          process.execPath,
          [redocly, "lint", "openapi.json", "--extends=recommended", "--format=json"],
          {
            cwd: directory,
            timeout: 60_000,
            env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" }
          }
        ).catch((error: { stdout: string }) => ({ stdout: error.stdout }))
      )
      const report = JSON.parse(stdout) as {
        totals: { errors: number }
        problems: ReadonlyArray<{ ruleId: string; severity: string; message: string }>
      }
      expect(report.problems.filter((problem) => problem.severity === "error")).toEqual([])
      expect(report.totals.errors).toBe(0)
    })
  )

  it.scoped("generates an openapi-typescript client whose page, list, call and transcript type-check", () =>
    Effect.gen(function* () {
      const document = yield* servedDocument
      const directory = yield* scratch
      const types = astToString(yield* Effect.promise(() => openapiTS(document as any)))
      writeFileSync(join(directory, "package.json"), JSON.stringify({ type: "module" }))
      writeFileSync(join(directory, "schema.ts"), types)
      copyFileSync(script, join(directory, "use-api.ts"))
      expect(typeErrors(join(directory, "use-api.ts"))).toEqual([])
      // the generated types say what the server takes: integers with their bounds
      expect(types).toMatch(/page\?: number/)
      expect(types).toMatch(/run_id: number/)
    })
  )
})
