import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { freePort } from "../support/ServerProcesses.js"
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

const apiKey = `vap_${"T".repeat(40)}`

/** A receiver on 127.0.0.1 (the server may reach it: OUTBOUND_ALLOW_HOSTS) answering an order's status. */
const orderService = () =>
  new Promise<{ readonly port: number; readonly paths: Array<string>; readonly server: Server }>(
    (resolve) => {
      const paths: Array<string> = []
      const server = createServer((request, response) => {
        paths.push(request.url ?? "")
        response.writeHead(200, { "content-type": "application/json" })
        response.end(JSON.stringify({ order: { id: request.url?.split("/").pop(), status: "shipped" } }))
      })
      server.listen(0, "127.0.0.1", () =>
        resolve({ port: (server.address() as AddressInfo).port, paths, server })
      )
    }
  )

describe.skipIf(chromium === undefined)("the console in a browser: tools", () => {
  let context: Awaited<ReturnType<typeof open>>
  let api: ReturnType<typeof apiOf>
  let receiver: Awaited<ReturnType<typeof orderService>>
  beforeAll(async () => {
    receiver = await orderService()
    context = await open(apiKey, { OUTBOUND_ALLOW_HOSTS: "127.0.0.1" })
    api = apiOf(context.server.port, apiKey)
  }, 120_000)
  afterAll(async () => {
    await context?.close()
    receiver?.server.close()
  }, 60_000)

  it("creates an HTTP API tool, tests it against a receiver, edits it and archives it", () =>
    withPage(context.browser, "tools", async (page) => {
      await signIn(page, context.url, apiKey)
      await press(page, "Tools", "link")
      await waitForText(page, /No tools yet\./)
      await press(page, "Create a tool", "link")
      await waitForHeading(page, /^Create a tool$/)
      await press(page, "Create the tool")
      await waitForText(page, /Give the tool a name\./)
      await fill(page, "Name", "Order status")
      await fill(page, "Description (optional)", "Looks up where an order is.")
      await fill(page, "URL", `http://127.0.0.1:${receiver.port}/orders/{{order_id}}`)
      await press(page, "Add a parameter")
      await fill(page, "Parameter 1", "order_id")
      await fill(page, "What parameter 1 is", "The order's number, e.g. A-17")
      await fill(page, "Response fields (optional)", "order.status")
      expect(await inspect(page, "tool-create")).toEqual([])
      await press(page, "Create the tool")
      expect(await waitForHeading(page, /Order status/)).toBe("Order status")
      await waitForText(page, /GET http:\/\/127\.0\.0\.1:\d+\/orders\/\{\{order_id\}\}/)
      const [stored] = (await api.get("/api/v1/tools")).items
      expect(stored.definition.config).toMatchObject({
        method: "GET",
        parameters: [{ name: "order_id", type: "string", required: true }],
        response_fields: ["order.status"]
      })

      // the test runs the tool once, and shows what goes back to the agent
      await fill(page, "Arguments (JSON)", '{"order_id": "A-17"}')
      await press(page, "Run the test")
      await waitForText(page, /The tool answered/)
      expect(receiver.paths).toEqual(["/orders/A-17"])
      expect(await page.$eval(".test-response", (pre) => JSON.parse(pre.textContent ?? ""))).toEqual({
        "order.status": "shipped"
      })
      await waitForText(page, /Status code\s+200/)
      expect(await inspect(page, "tool")).toEqual([])
      // a call the tool's parameters refuse: no request, the kind of failure shown
      await fill(page, "Arguments (JSON)", "{}")
      await press(page, "Run the test")
      await waitForText(page, /The call failed: invalid arguments/)
      expect(receiver.paths).toHaveLength(1)
      await fill(page, "Arguments (JSON)", "[1]")
      await press(page, "Run the test")
      await waitForText(page, /Arguments must be a JSON object/)

      await press(page, "Edit the tool")
      await fill(page, "Name", "Order lookup")
      await press(page, "Save the tool")
      expect(await waitForHeading(page, /Order lookup/)).toBe("Order lookup")

      await press(page, "Archive the tool")
      await waitForText(page, /Archive this tool\?/)
      await page.locator('dialog ::-p-aria([name="Archive the tool"][role="button"])').click()
      await waitForText(page, /archived: it stays readable/)
      expect(await page.$("#test-arguments")).toBeNull()
      expect((await api.get(`/api/v1/tools/${stored.tool_uuid}`)).status).toBe("archived")
    }))

  it("shows the API's reason for an address it may not reach, and a failed call's kind", () =>
    withPage(context.browser, "tool-refused", async (page) => {
      await signIn(page, context.url, apiKey, "tools/new")
      await waitForHeading(page, /^Create a tool$/)
      await fill(page, "Name", "Internal service")
      await fill(page, "URL", "http://10.0.0.1/hook")
      await press(page, "Create the tool")
      await waitForText(page, /definition\.config\.url: must not point to a private address/)
      expect(await waitForHeading(page, /^Create a tool$/)).toBe("Create a tool")

      const closed = await freePort()
      const tool = await api.post("/api/v1/tools", {
        name: "Nobody listens",
        definition: { type: "http_api", config: { method: "POST", url: `http://127.0.0.1:${closed}/hook` } }
      })
      await page.goto(`${context.url}/tools`, { waitUntil: "load" })
      await press(page, tool.name, "link")
      await waitForHeading(page, /Nobody listens/)
      await press(page, "Run the test")
      await waitForText(page, /The call failed: connection failed/)
      expect(await inspect(page, "tool-failed")).toEqual([])
      await page.goto(`${context.url}/tools?status=archived`, { waitUntil: "load" })
      await waitForText(page, /Order lookup/)
      expect(await page.evaluate(() => (globalThis as any).document.body.innerText)).not.toContain(tool.name)
    }))
})
