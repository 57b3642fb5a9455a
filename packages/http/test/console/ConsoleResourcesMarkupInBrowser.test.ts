import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { apiOf } from "./support/ConsoleFixtures.js"
import { chromium, open, signIn, waitForHeading, waitForText, withPage } from "./support/ConsoleBrowser.js"

const apiKey = `vap_${"M".repeat(40)}`
const injected = "<img src=x onerror=alert(1)>"
const shown = /<img src=x onerror=alert\(1\)>/

describe.skipIf(chromium === undefined)(
  "the console in a browser: markup in tools, keys, documents, webhooks",
  () => {
    let context: Awaited<ReturnType<typeof open>>
    let api: ReturnType<typeof apiOf>
    beforeAll(async () => {
      context = await open(apiKey, { OUTBOUND_ALLOW_HOSTS: "127.0.0.1" })
      api = apiOf(context.server.port, apiKey)
    }, 120_000)
    afterAll(async () => {
      await context?.close()
    }, 60_000)

    it(`shows names, descriptions, file names and passages holding ${injected} as text, and runs nothing`, () =>
      withPage(context.browser, "resources-markup", async (page) => {
        const tool = await api.post("/api/v1/tools", {
          name: injected,
          description: `Does ${injected}`,
          definition: {
            type: "end_call",
            config: { messageType: "custom", customMessage: `Bye ${injected}` }
          }
        })
        await api.post("/api/v1/api-keys", { name: injected })
        const endpoint = await api.post("/api/v1/webhooks", {
          url: "http://127.0.0.1:9/in",
          description: `Hook ${injected}`
        })
        const form = new FormData()
        form.append(
          "file",
          new Blob([`Opening hours ${injected} weekdays.`], { type: "text/plain" }),
          `${injected}.txt`
        )
        const uploaded = await fetch(
          `http://127.0.0.1:${context.server.port}/api/v1/knowledge-base/documents`,
          {
            method: "POST",
            headers: { "x-api-key": apiKey },
            body: form
          }
        )
        expect(uploaded.status).toBe(200)
        const document = (await uploaded.json()) as { document_uuid: string }

        await signIn(page, context.url, apiKey, "tools")
        await waitForText(page, shown)
        await page.goto(`${context.url}/tools/${tool.tool_uuid}`, { waitUntil: "load" })
        expect(await waitForHeading(page, /<img/)).toBe(injected)
        await waitForText(page, /Does <img src=x onerror=alert\(1\)>/)
        await waitForText(page, /says: Bye <img src=x onerror=alert\(1\)>/)

        await page.goto(`${context.url}/api-keys`, { waitUntil: "load" })
        await waitForText(page, shown)
        await page.goto(`${context.url}/webhooks`, { waitUntil: "load" })
        await waitForText(page, /Hook <img src=x onerror=alert\(1\)>/)
        await page.goto(`${context.url}/webhooks/${endpoint.id}`, { waitUntil: "load" })
        await waitForText(page, /Hook <img src=x onerror=alert\(1\)>/)

        await page.goto(`${context.url}/knowledge-base`, { waitUntil: "load" })
        await waitForText(page, /Ready: 1 chunk/)
        await page.goto(`${context.url}/knowledge-base?q=opening+hours`, { waitUntil: "load" })
        await waitForText(page, /Opening hours <img src=x onerror=alert\(1\)> weekdays\./)
        await page.goto(`${context.url}/knowledge-base/${document.document_uuid}`, { waitUntil: "load" })
        expect(await waitForHeading(page, /<img/)).toBe(`${injected}.txt`)
        await waitForText(page, /Opening hours <img src=x onerror=alert\(1\)> weekdays\./)
        // no element was made from the text, and nothing ran (withPage fails on any dialog or script error)
        expect(await page.$$eval("img", (images) => images.length)).toBe(0)
      }))
  }
)
