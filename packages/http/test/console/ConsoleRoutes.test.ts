import { HttpClient, HttpClientRequest } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import * as WebHandler from "../../src/embedding/WebHandler.js"
import { contentSecurityPolicy } from "../../src/console/ConsoleHeaders.js"
import { send, TestServer } from "../support/TestServer.js"

/** The console's build, as the global setup made it. */
const built = join(
  dirname(createRequire(import.meta.url).resolve("@voice-agent-platform/console/package.json")),
  "dist",
  "console"
)
const manifest = JSON.parse(readFileSync(join(built, "manifest.json"), "utf8")) as {
  readonly entry: string
  readonly css: ReadonlyArray<string>
  readonly files: Readonly<Record<string, { readonly type: string }>>
}

const get = (url: string) =>
  Effect.flatMap(HttpClient.HttpClient, (client) => send(client, HttpClientRequest.get(url)))

/** The headers every console answer carries. */
const expectSecurityHeaders = (headers: Readonly<Record<string, string | undefined>>) => {
  expect(headers["content-security-policy"]).toBe(contentSecurityPolicy)
  expect(headers["content-security-policy"]).toContain("script-src 'self';")
  expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'")
  // a recording plays from a blob: address the page made; nothing else is widened
  expect(headers["content-security-policy"]).toContain("media-src 'self' blob:;")
  expect(headers["content-security-policy"]).toContain("connect-src 'self';")
  expect(headers["content-security-policy"]).toContain("img-src 'self' data:;")
  expect(headers["content-security-policy"]).not.toMatch(/unsafe-inline|unsafe-eval/)
  expect(headers["x-content-type-options"]).toBe("nosniff")
  expect(headers["referrer-policy"]).toBe("no-referrer")
}

describe("the console's routes", () => {
  it.effect(
    "answer the page for /console and every screen address, its assets addressed from where it is",
    () =>
      Effect.gen(function* () {
        const cases = [
          ["/console", `src="console/${manifest.entry}"`],
          ["/console/", `src="${manifest.entry}"`],
          ["/console/agents?status=archived&page=2", `src="${manifest.entry}"`],
          ["/console/agents/agent_x", `src="../${manifest.entry}"`],
          ["/console/agents/agent_x/chat/", `src="../../../${manifest.entry}"`]
        ] as const
        for (const [url, script] of cases) {
          const answer = yield* get(url)
          expect(answer.status, url).toBe(200)
          expect(answer.headers["content-type"]).toBe("text/html; charset=utf-8")
          expect(answer.headers["cache-control"]).toBe("no-cache")
          expectSecurityHeaders(answer.headers)
          expect(answer.text).toContain(`<script type="module" ${script}></script>`)
          expect(answer.text).toContain('<div id="app"></div>')
          // nothing inline for the policy to refuse: no script body, no style element or attribute
          expect(answer.text).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>|<style|\sstyle=/)
        }
      }).pipe(Effect.provide(TestServer))
  )

  it.effect("answer each built asset with its type, kept a year, and the security headers", () =>
    Effect.gen(function* () {
      const files = Object.entries(manifest.files)
      expect(files.some(([, { type }]) => type.startsWith("text/javascript"))).toBe(true)
      expect(files.some(([, { type }]) => type.startsWith("text/css"))).toBe(true)
      for (const [file, { type }] of files) {
        const answer = yield* get(`/console/${file}`)
        expect(answer.status, file).toBe(200)
        expect(answer.headers["content-type"]).toBe(type)
        expect(answer.headers["cache-control"]).toBe("public, max-age=31536000, immutable")
        expectSecurityHeaders(answer.headers)
        expect(answer.text).toBe(readFileSync(join(built, file), "utf8"))
      }
    }).pipe(Effect.provide(TestServer))
  )

  it.effect(
    "answer 404 for an asset that is not built, the build's other files, and a path out of the folder",
    () =>
      Effect.gen(function* () {
        for (const url of [
          "/console/assets/main-00000000.js",
          "/console/assets/",
          "/console/assets/..%2Fmanifest.json",
          "/console/assets/index.html",
          "/console/assets/manifest.json",
          "/console/assets/sub/main.js"
        ]) {
          const answer = yield* get(url)
          expect(answer.status, url).toBe(404)
          expectSecurityHeaders(answer.headers)
          expect(answer.text).not.toContain("<script")
        }
      }).pipe(Effect.provide(TestServer))
  )

  it.effect("need no API key, and leave the API's own answers as they were", () =>
    Effect.gen(function* () {
      const client = yield* HttpClient.HttpClient
      const api = yield* send(client, HttpClientRequest.get("/api/v1/agents"))
      expect(api.status).toBe(401)
      expect(api.headers["content-security-policy"]).toBeUndefined()
      const unknown = yield* send(client, HttpClientRequest.get("/consoles"))
      expect(unknown.status).toBe(404)
      expect(unknown.body).toEqual({ detail: "Not Found" })
      const posted = yield* send(client, HttpClientRequest.post("/console"))
      expect(posted.status).toBe(404)
    }).pipe(Effect.provide(TestServer))
  )
})

describe("the console for embedders", () => {
  it("is served by the API's handlers, and not when the option turns it off", async () => {
    const served = WebHandler.make()
    const off = WebHandler.make({ console: false })
    try {
      const page = await served.handler(new Request("http://embedded.test/console/agents"))
      expect(page.status).toBe(200)
      expect(page.headers.get("content-security-policy")).toBe(contentSecurityPolicy)
      expect(await page.text()).toContain(`src="${manifest.entry}"`)
      const asset = await served.handler(new Request(`http://embedded.test/console/${manifest.entry}`))
      expect(asset.status).toBe(200)
      expect((await off.handler(new Request("http://embedded.test/console"))).status).toBe(404)
      expect((await off.handler(new Request(`http://embedded.test/console/${manifest.entry}`))).status).toBe(
        404
      )
    } finally {
      await served.dispose()
      await off.dispose()
    }
  })
})
