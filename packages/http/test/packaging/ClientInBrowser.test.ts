import { afterAll, describe, expect, it } from "@effect/vitest"
import { build } from "esbuild"
import { fileURLToPath } from "node:url"
import * as Chromium from "../support/Chromium.js"
import { removeDataDirectories, start, stop } from "../support/ServerProcesses.js"

/** Debian's chromium; missing locally, the check is skipped with a warning, never in CI. */
const chromium = Chromium.find("the typed client's run in a browser")

const contract = fileURLToPath(new URL("../../../contract/", import.meta.url))
const apiKey = `vap_${"B".repeat(40)}`

/**
 * The typed client bundled for a browser, as a web application would: esbuild's browser platform refuses
 * any Node built-in, so this fails if the contract (or a package it loads) reaches one.
 */
const bundle = async () => {
  const result = await build({
    stdin: {
      contents: `export * as Client from "@voice-agent-platform/contract/client"\nexport * as ApiErrors from "@voice-agent-platform/contract/errors/ApiErrors.js"\nexport { Effect } from "effect"`,
      resolveDir: contract,
      loader: "ts"
    },
    bundle: true,
    platform: "browser",
    format: "iife",
    globalName: "Vap",
    conditions: ["@voice-agent-platform/source"],
    metafile: true,
    write: false,
    logLevel: "silent"
  })
  return { code: result.outputFiles[0]!.text, inputs: Object.keys(result.metafile.inputs) }
}

describe("the typed client in a browser", () => {
  afterAll(removeDataDirectories)

  it("bundles for the browser from the contract and core's pure schemas only", async () => {
    const { inputs } = await bundle()
    expect(inputs.some((input) => input.includes("contract/src/Api.ts"))).toBe(true)
    expect(
      inputs.filter((input) =>
        /packages\/(http|pg)\/|node_modules\/(pg|@effect\/(sql|platform-node))/.test(input)
      )
    ).toEqual([])
    expect(
      inputs.filter((input) =>
        /core\/src\/(runs\/Runs|calls\/CallEvents|knowledge-base\/KnowledgeBase)\.ts/.test(input)
      )
    ).toEqual([])
  }, 60_000)

  it.skipIf(chromium === undefined)(
    "places requests from a page with fetch: an answer, and a typed 401",
    async () => {
      const { code } = await bundle()
      const server = await start({ BOOTSTRAP_API_KEY: apiKey })
      const browser = await Chromium.launch(chromium!)
      try {
        const page = await browser.newPage()
        const origin = `http://127.0.0.1:${server.port}`
        // a page of the server's origin, so that the client's requests are same-origin
        await page.goto(`${origin}/health`, { timeout: 30_000 })
        await page.addScriptTag({ content: code })
        const answers = await page.evaluate(
          async (baseUrl, key) => {
            const { ApiErrors, Client, Effect } = (globalThis as any).Vap
            const run = (apiKey: string) =>
              Effect.runPromise(
                Effect.flatMap(Client.make({ baseUrl, apiKey, retry: false }), (client: any) =>
                  Effect.either(client.agents.list({ urlParams: { page: 1, limit: 10 } }))
                )
              )
            const listed = await run(key)
            const refused = await run(`vap_${"Z".repeat(40)}`)
            return {
              inBrowser: typeof (globalThis as any).process === "undefined",
              listed: listed._tag === "Right" ? { total: listed.right.total_count } : String(listed.left),
              refused:
                refused._tag === "Left"
                  ? {
                      unauthorized: refused.left instanceof ApiErrors.Unauthorized,
                      detail: refused.left.detail
                    }
                  : "answered"
            }
          },
          origin,
          apiKey
        )
        expect(answers).toEqual({
          inBrowser: true,
          listed: { total: 0 },
          refused: { unauthorized: true, detail: "Invalid API key" }
        })
      } finally {
        await browser.close()
        await stop(server)
      }
    },
    120_000
  )
})
