import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import type { Page } from "puppeteer-core"
import { apiOf } from "./support/ConsoleFixtures.js"
import {
  chromium,
  fill,
  inspect,
  open,
  press,
  signIn,
  waitForHeading,
  waitForText,
  withPage
} from "./support/ConsoleBrowser.js"

const apiKey = `vap_${"W".repeat(40)}`

/** A receiver on 127.0.0.1 (allowed by OUTBOUND_ALLOW_HOSTS): `/in` takes events (204), `/broken` answers 503. */
const receiver = () =>
  new Promise<{ readonly port: number; readonly received: Array<string>; readonly server: Server }>(
    (resolve) => {
      const received: Array<string> = []
      const server = createServer((request, response) => {
        let body = ""
        request.on("data", (chunk) => (body += chunk))
        request.on("end", () => {
          if (request.url === "/broken") return response.writeHead(503).end()
          received.push((JSON.parse(body) as { type: string }).type)
          response.writeHead(204).end()
        })
      })
      server.listen(0, "127.0.0.1", () =>
        resolve({ port: (server.address() as AddressInfo).port, received, server })
      )
    }
  )

/** Adds an endpoint in the console for call.deleted only; answers the secret it showed once. */
const addEndpoint = async (page: Page, url: string) => {
  await fill(page, "URL", url)
  for (const label of ["call.started: a call or chat began", "call.ended: it ended"]) {
    await page.locator(`::-p-aria([name="${label}"][role="checkbox"])`).click()
  }
  await page
    .locator('::-p-aria([name="call.analyzed: its analysis is done (or failed)"][role="checkbox"])')
    .click()
  for (const label of [
    "campaign.started",
    "campaign.completed",
    "campaign.contact.skipped: a contact was not called"
  ]) {
    await page.locator(`::-p-aria([name="${label}"][role="checkbox"])`).click()
  }
  await press(page, "Add the endpoint")
  await waitForText(page, /you will not see it again/)
  return page.$eval(".secret-value code", (code) => code.textContent ?? "")
}

describe.skipIf(chromium === undefined)("the console in a browser: webhooks", () => {
  let context: Awaited<ReturnType<typeof open>>
  let api: ReturnType<typeof apiOf>
  let hook: Awaited<ReturnType<typeof receiver>>
  beforeAll(async () => {
    hook = await receiver()
    context = await open(apiKey, { OUTBOUND_ALLOW_HOSTS: "127.0.0.1" })
    api = apiOf(context.server.port, apiKey)
  }, 120_000)
  afterAll(async () => {
    await context?.close()
    hook?.server.close()
  }, 60_000)

  it("adds endpoints, shows their deliveries as the log has them, pauses one and deletes one", () =>
    withPage(context.browser, "webhooks", async (page) => {
      await signIn(page, context.url, apiKey)
      await press(page, "Webhooks", "link")
      await waitForText(page, /No endpoints yet/)
      // the API's refusal, as it says it
      await fill(page, "URL", "http://10.0.0.1/in")
      await press(page, "Add the endpoint")
      await waitForText(page, /url: .*private address/)

      const secret = await addEndpoint(page, `http://127.0.0.1:${hook.port}/in`)
      expect(secret).toMatch(/^whsec_/)
      await press(page, "I have stored it: hide the secret")
      await addEndpoint(page, `http://127.0.0.1:${hook.port}/broken`)
      await page.waitForFunction(() => (globalThis as any).document.querySelectorAll("tbody tr").length === 2)
      await waitForText(page, /call\.deleted/)
      expect(await inspect(page, "webhooks")).toEqual([])
      const endpoints = (await api.get("/api/v1/webhooks")).items
      expect(endpoints.map((endpoint: { events: Array<string> }) => endpoint.events)).toEqual([
        ["call.deleted"],
        ["call.deleted"]
      ])

      // a chat erased: one call.deleted event to each endpoint
      const agent = await api.agent("Hooked agent")
      const run = await api.post(`/api/v1/agents/${agent.public_id}/conversations`, { mode: "chat" })
      const erased = await fetch(
        `http://127.0.0.1:${context.server.port}/api/v1/agents/${agent.public_id}/conversations/${run.workflow_run_id}`,
        { method: "DELETE", headers: { "x-api-key": apiKey } }
      )
      expect(erased.status).toBe(204)
      for (let i = 0; i < 100 && hook.received.length === 0; i++) await new Promise((r) => setTimeout(r, 100))
      expect(hook.received).toEqual(["call.deleted"])

      await press(page, `http://127.0.0.1:${hook.port}/in`, "link")
      await waitForHeading(page, /Webhook endpoint/)
      await waitForText(page, /call\.deleted\s+delivered\s+1/)
      expect(await inspect(page, "webhook")).toEqual([])
      await press(page, "Pause sending")
      await waitForText(page, /paused: it gets no new events/)
      expect((await api.get(`/api/v1/webhooks/${endpoints[1].id}`)).enabled).toBe(false)

      await page.goto(`${context.url}/webhooks/${endpoints[0].id}`, { waitUntil: "load" })
      await waitForHeading(page, /Webhook endpoint/)
      for (let i = 0; i < 50; i++) {
        const text = await page.evaluate(() => (globalThis as any).document.body.innerText as string)
        if (/pending: answered 503/.test(text)) break
        await new Promise((r) => setTimeout(r, 200))
        await press(page, "Refresh the log")
      }
      await waitForText(page, /call\.deleted\s+pending: answered 503\s+1/)
      expect(await inspect(page, "webhook-failing")).toEqual([])
      await press(page, "Delete the endpoint")
      await waitForText(page, /Delete this endpoint\?/)
      await page.locator('dialog ::-p-aria([name="Delete the endpoint"][role="button"])').click()
      await waitForHeading(page, /^Webhooks$/)
      await page.waitForFunction(() => (globalThis as any).document.querySelectorAll("tbody tr").length === 1)
      expect(
        (await api.get("/api/v1/webhooks")).items.map((endpoint: { id: string }) => endpoint.id)
      ).toEqual([endpoints[1].id])
    }))
})
