import { describe, expect, it } from "@effect/vitest"
import { request } from "node:http"
import { call, start } from "./support/ServerProcesses.js"

describe("the bundled server (npm start)", () => {
  it("prints a fresh API key on an empty store, serves with it, and stops cleanly on SIGTERM", async () => {
    const server = await start()
    try {
      const key = /\b(vap_[0-9A-Za-z]{40})\b/.exec(server.output())?.[1]
      expect(key).toBeDefined()
      expect(server.output()).toContain(`http://127.0.0.1:${server.port}`)
      expect((await call(server.port, "GET", "/health")).status).toBe(200)
      expect((await call(server.port, "GET", "/api/v1/agents", { "x-api-key": key! })).status).toBe(200)
      expect((await call(server.port, "GET", "/api/v1/agents")).status).toBe(401)
      // without ADMIN_TOKEN the operator API does not exist
      expect(
        (
          await call(server.port, "POST", "/admin/v1/organizations", {
            authorization: "Bearer whatever-whatever"
          })
        ).status
      ).toBe(404)
    } finally {
      server.child.kill("SIGTERM")
    }
    expect(await server.exited).toBe(0)
  }, 60_000)

  it("uses BOOTSTRAP_API_KEY and ADMIN_TOKEN, and refuses a malformed BOOTSTRAP_API_KEY", async () => {
    const key = `vap_${"K".repeat(40)}`
    const server = await start({ BOOTSTRAP_API_KEY: key, ADMIN_TOKEN: "operator-token-0123456789" })
    try {
      expect(server.output()).not.toContain(key)
      expect((await call(server.port, "GET", "/api/v1/agents", { "x-api-key": key })).status).toBe(200)
      const created = await call(
        server.port,
        "POST",
        "/admin/v1/organizations",
        { authorization: "Bearer operator-token-0123456789", "content-type": "application/json" },
        JSON.stringify({ name: "Second" })
      )
      expect(created.status).toBe(200)
    } finally {
      server.child.kill("SIGTERM")
    }
    expect(await server.exited).toBe(0)

    await expect(start({ BOOTSTRAP_API_KEY: "not-a-key" })).rejects.toThrow(/BOOTSTRAP_API_KEY/)
  }, 60_000)

  it("lets a request in flight finish when it is told to stop", async () => {
    const key = `vap_${"G".repeat(40)}`
    const server = await start({ BOOTSTRAP_API_KEY: key })
    const body = JSON.stringify({ agent: { greeting: "Hello" } })
    const answer = new Promise<number>((resolve, reject) => {
      const req = request(
        {
          host: "127.0.0.1",
          port: server.port,
          method: "POST",
          path: "/api/v1/agents/from-script",
          headers: {
            "x-api-key": key,
            "content-type": "application/json",
            "content-length": Buffer.byteLength(body)
          }
        },
        (res) => {
          res.resume()
          res.on("end", () => resolve(res.statusCode ?? 0))
        }
      )
      req.on("error", reject)
      // Send half the body, stop the server, then send the rest.
      req.write(body.slice(0, 10))
      setTimeout(() => {
        server.child.kill("SIGTERM")
        setTimeout(() => req.end(body.slice(10)), 300)
      }, 200)
    })
    expect(await answer).toBe(200)
    expect(await server.exited).toBe(0)
  }, 60_000)
})
