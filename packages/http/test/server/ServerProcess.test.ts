import { afterAll, describe, expect, it } from "@effect/vitest"
import { request } from "node:http"
import { call, removeDataDirectories, send, start, stop } from "../support/ServerProcesses.js"

describe("the bundled server (npm start)", () => {
  afterAll(removeDataDirectories)

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
    // a database that does not answer stops the server with a message that names it, not its password
    const unreachable = start({
      DATABASE_URL: "postgres://someone:hunter2-secret@127.0.0.1:1/voice",
      ENCRYPTION_KEY: "an-encryption-key-for-this-test-0123456789"
    })
    await expect(unreachable).rejects.toThrow(
      /Cannot connect to the PostgreSQL database at postgres:\/\/someone:\*\*\*@127\.0\.0\.1:1\/voice: connect ECONNREFUSED/
    )
    await expect(unreachable).rejects.not.toThrow(/hunter2/)
    await expect(start({ DATABASE_URL: "postgres://127.0.0.1:1/voice" })).rejects.toThrow(
      /ENCRYPTION_KEY is required/
    )
    // four starts, one after the other: a bound for a loaded machine, not a measure
  }, 120_000)

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

  it("keeps agents, runs, keys and balances in DATA_DIR across a restart", async () => {
    const adminToken = "operator-token-restart-0123456789"
    const first = await start({ ADMIN_TOKEN: adminToken })
    const key = /\b(vap_[0-9A-Za-z]{40})\b/.exec(first.output())![1]!
    const organizationId = Number(/organization (\d+)/.exec(first.output())![1])
    let agent: { public_id: string }
    let run: { workflow_run_id: number }
    try {
      agent = (
        await send(
          first.port,
          "POST",
          "/api/v1/agents/from-script",
          { apiKey: key },
          {
            agent: { greeting: "Remember me" }
          }
        )
      ).json
      run = (
        await send(
          first.port,
          "POST",
          `/api/v1/agents/${agent.public_id}/conversations`,
          { apiKey: key },
          {
            mode: "chat",
            initial_context: { customer: "Ola" }
          }
        )
      ).json
      expect(run.workflow_run_id).toBeGreaterThan(0)
      const topUp = await send(
        first.port,
        "POST",
        `/admin/v1/organizations/${organizationId}/balance-top-ups`,
        { bearer: adminToken },
        { amount_pln: 12.34 }
      )
      expect(topUp.status).toBe(200)
    } finally {
      expect(await stop(first)).toBe(0)
    }

    const second = await start(first.env)
    try {
      // no new organization, no new key: the first one still works
      expect(second.output()).not.toMatch(/vap_[0-9A-Za-z]{40}/)
      const read = await send(second.port, "GET", `/api/v1/agents/${agent.public_id}`, { apiKey: key })
      expect(read.status).toBe(200)
      expect(read.json.workflow_definition.first_message).toContain("Remember me")
      const runs = await send(second.port, "GET", `/api/v1/agents/${agent.public_id}/conversations`, {
        apiKey: key
      })
      expect(runs.json.items.map((r: { workflow_run_id: number }) => r.workflow_run_id)).toEqual([
        run.workflow_run_id
      ])
      const quote = await send(second.port, "GET", "/api/v1/phone-numbers/polish/quote?number_type=mobile", {
        apiKey: key
      })
      expect(quote.json.balance_pln).toBe(12.34)
    } finally {
      expect(await stop(second)).toBe(0)
    }
  }, 120_000)
})
