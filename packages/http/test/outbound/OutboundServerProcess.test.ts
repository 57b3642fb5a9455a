import { afterAll, describe, expect, it } from "@effect/vitest"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { removeDataDirectories, send, start, stop } from "../support/ServerProcesses.js"

/** A receiver on 127.0.0.1 that keeps the event type of every webhook it gets and answers 204. */
const receiver = () =>
  new Promise<{ readonly port: number; readonly events: Array<string>; readonly close: () => void }>(
    (resolve) => {
      const events: Array<string> = []
      const server = createServer((request, response) => {
        let body = ""
        request.on("data", (chunk) => (body += chunk))
        request.on("end", () => {
          events.push((JSON.parse(body) as { type: string }).type)
          response.writeHead(204).end()
        })
      })
      server.listen(0, "127.0.0.1", () =>
        resolve({
          port: (server.address() as AddressInfo).port,
          events,
          close: () => server.close()
        })
      )
    }
  )

describe("OUTBOUND_ALLOW_HOSTS on the bundled server (npm start)", () => {
  afterAll(removeDataDirectories)

  it("delivers webhooks to the allowed loopback address through the outbound client, and refuses others with a 422", async () => {
    const hook = await receiver()
    const key = `vap_${"H".repeat(40)}`
    const server = await start({ BOOTSTRAP_API_KEY: key, OUTBOUND_ALLOW_HOSTS: "127.0.0.1" })
    try {
      const auth = { apiKey: key }
      for (const url of [
        `http://localhost:${hook.port}/in`,
        `http://127.0.0.2:${hook.port}/in`,
        "http://10.0.0.1/in"
      ]) {
        const refused = await send(server.port, "POST", "/api/v1/webhooks", auth, { url })
        expect(refused.status, url).toBe(422)
        expect(refused.json.detail[0].loc).toEqual(["body", "url"])
      }
      const created = await send(server.port, "POST", "/api/v1/webhooks", auth, {
        url: `http://127.0.0.1:${hook.port}/in`,
        events: ["call.deleted"]
      })
      expect(created.status).toBe(200)
      const agent = await send(server.port, "POST", "/api/v1/agents/from-script", auth, {
        agent: { greeting: "Hello" }
      })
      expect(agent.status).toBe(200)
      const run = await send(
        server.port,
        "POST",
        `/api/v1/agents/${agent.json.public_id}/conversations`,
        auth,
        {
          mode: "chat"
        }
      )
      expect(run.status).toBe(200)
      const deleted = await send(
        server.port,
        "DELETE",
        `/api/v1/agents/${agent.json.public_id}/conversations/${run.json.workflow_run_id}`,
        auth
      )
      expect(deleted.status).toBe(204)
      for (let i = 0; i < 100 && hook.events.length === 0; i++) await new Promise((r) => setTimeout(r, 100))
      expect(hook.events).toEqual(["call.deleted"])
      const log = await send(server.port, "GET", `/api/v1/webhooks/${created.json.id}/deliveries`, auth)
      expect(log.json.items).toEqual([
        expect.objectContaining({
          event_type: "call.deleted",
          status: "delivered",
          attempts: 1,
          last_status_code: 204
        })
      ])
    } finally {
      hook.close()
      await stop(server)
    }
    await expect(start({ OUTBOUND_ALLOW_HOSTS: "127.0.0.1,10.0.0.0/40" })).rejects.toThrow(
      /OUTBOUND_ALLOW_HOSTS: "10\.0\.0\.0\/40" is not a CIDR range/
    )
  }, 90_000)
})
