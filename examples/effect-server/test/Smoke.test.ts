import { describe, expect, it } from "vitest"
import { startExample } from "@voice-agent-platform/example-testing/ExampleProcess.js"

const adminToken = "example-admin-token-0123456789"

describe("the Effect server example", () => {
  it("serves the host's routes and the composed API on one router", async () => {
    const example = await startExample(new URL("..", import.meta.url), { ADMIN_TOKEN: adminToken })
    try {
      const hello = await fetch(`${example.url}/hello`)
      expect(await hello.json()).toEqual({ hello: "from the host" })
      expect((await fetch(`${example.url}/health`)).status).toBe(200)
      const organization = await fetch(`${example.url}/admin/v1/organizations`, {
        method: "POST",
        headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
        body: JSON.stringify({ name: "Effect host" })
      })
      expect(organization.status).toBe(200)
      const { api_key } = (await organization.json()) as { api_key: string }
      const agent = await fetch(`${example.url}/api/v1/agents/from-script`, {
        method: "POST",
        headers: { "x-api-key": api_key, "content-type": "application/json" },
        body: JSON.stringify({ agent: { greeting: "Hello from Effect" } })
      })
      expect(agent.status).toBe(200)
      expect((await fetch(`${example.url}/api/v1/agents`)).status).toBe(401)
    } finally {
      await example.stop()
    }
  }, 90_000)
})
