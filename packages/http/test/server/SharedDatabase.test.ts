import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { CallingClock } from "@voice-agent-platform/core/testing"
import { Migrations } from "@voice-agent-platform/pg"
import { TestDatabase } from "@voice-agent-platform/pg/testing"
import { removeDataDirectories, type Running, send, startAll, stop } from "../support/ServerProcesses.js"
import pg from "pg"

/**
 * Several stateless servers over one PostgreSQL database keep every promise a single server keeps: the
 * decisions live in the database, not in either process. Two server processes start at once on a fresh
 * database (racing on migrations and on the bootstrap), and requests are split between them.
 */

const adminToken = "operator-token-shared-0123456789"
const encryptionKey = "an-encryption-key-shared-by-both-servers-0123"

/** Distinct Warsaw numbers: inside calling hours on servers started with `CallingClock.env()`. */
const callable = (i: number) => `${CallingClock.insidePrefix}${String(100_000 + i).slice(-6)}`

const reachable = await TestDatabase.serverReachable()
if (!reachable) TestDatabase.warnUnreachable("the two-server tests")

describe.skipIf(!reachable)("two servers over one PostgreSQL database", () => {
  let database: string
  let servers: ReadonlyArray<Running> = []

  beforeAll(async () => {
    database = await TestDatabase.createDatabase()
    const env = {
      DATABASE_URL: TestDatabase.databaseUrl(database),
      ENCRYPTION_KEY: encryptionKey,
      ADMIN_TOKEN: adminToken,
      // calls stay live for the whole test: their channels stay held
      SIM_CALL_SECONDS: "600",
      // both servers' clocks read 11:00 UTC today, whatever the hour: the numbers are inside calling hours
      ...CallingClock.env()
    }
    // both at once: they race to apply the migrations and to create the first organization
    servers = await startAll([env, env])
  }, 120_000)

  afterAll(async () => {
    await Promise.all(servers.map(stop))
    removeDataDirectories()
    if (database !== undefined) await TestDatabase.dropDatabase(database)
  }, 60_000)

  const [a, b] = [() => servers[0]!.port, () => servers[1]!.port]
  const both = () => [a(), b()]

  /** A fresh organization, created through server A's operator API. */
  const organization = async (settings: { readonly outbound_channels?: number } = {}) => {
    const created = await send(
      a(),
      "POST",
      "/admin/v1/organizations",
      { bearer: adminToken },
      {
        name: "Shared database test",
        ...settings
      }
    )
    expect(created.status).toBe(200)
    return created.json as { organization_id: number; api_key: string }
  }

  const agentOf = async (apiKey: string) => {
    const created = await send(
      b(),
      "POST",
      "/api/v1/agents/from-script",
      { apiKey },
      { agent: { greeting: "Hi" } }
    )
    expect(created.status).toBe(200)
    return created.json as { id: number; public_id: string }
  }

  it("applied each schema version once and created one first organization, though both started at once", async () => {
    const outputs = servers.map((server) => server.output())
    expect(outputs.filter((output) => output.includes("Created organization")).length).toBe(1)
    for (const port of both()) expect((await send(port, "GET", "/health", {})).status).toBe(200)
    const client = new pg.Client({ connectionString: TestDatabase.databaseUrl(database) })
    await client.connect()
    try {
      const applied = await client.query("SELECT migration_id FROM schema_migrations ORDER BY migration_id")
      // every version the code has, each once
      expect(applied.rows.map((row) => row.migration_id)).toEqual(
        Object.keys(Migrations.migrations)
          .map((name) => Number.parseInt(name, 10))
          .sort((a, b) => a - b)
      )
      const organizations = await client.query("SELECT count(*)::int AS n FROM organizations")
      expect(organizations.rows[0].n).toBe(1)
    } finally {
      await client.end()
    }
  })

  it("accepts exactly 10 of 200 simultaneous calls at 10 channels, split across both servers", async () => {
    const { api_key: apiKey } = await organization({ outbound_channels: 10 })
    const agent = await agentOf(apiKey)
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        send(
          both()[i % 2]!,
          "POST",
          `/api/v1/agents/${agent.public_id}/calls`,
          { apiKey },
          {
            phone_number: callable(i)
          }
        )
      )
    )
    const statuses = answers.map((answer) => answer.status)
    expect(statuses.filter((status) => status === 200)).toHaveLength(10)
    expect(statuses.filter((status) => status === 429)).toHaveLength(190)
    for (const refused of answers.filter((answer) => answer.status === 429)) {
      expect(Number(refused.headers["retry-after"])).toBeGreaterThanOrEqual(1)
    }
    // both servers see the same ten live runs
    for (const port of both()) {
      const listed = await send(port, "GET", `/api/v1/agents/${agent.public_id}/conversations?limit=100`, {
        apiKey
      })
      expect(listed.status).toBe(200)
      expect(listed.json.total_count).toBe(10)
    }
  }, 120_000)

  it("appends an improvement once when both servers accept it at the same moment", async () => {
    const { api_key: apiKey } = await organization()
    const agent = await agentOf(apiKey)
    const base = `/api/v1/agents/${agent.public_id}/improvements`
    for (let round = 0; round < 5; round++) {
      const text = `Confirm the date twice (round ${round}).`
      const suggestion = await send(a(), "POST", base, { apiKey }, { text })
      expect(suggestion.status).toBe(200)
      const answers = await Promise.all(
        both().map((port) => send(port, "POST", `${base}/${suggestion.json.id}/accept`, { apiKey }))
      )
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409])
      const read = await send(b(), "GET", `/api/v1/agents/${agent.public_id}`, { apiKey })
      expect(read.json.workflow_definition.system_prompt.split(text).length).toBe(2)
    }
  }, 60_000)

  it("gives the last inventory number to exactly one of two simultaneous orders", async () => {
    for (let round = 0; round < 5; round++) {
      const buyers = await Promise.all([organization(), organization()])
      for (const buyer of buyers) {
        const topUp = await send(
          a(),
          "POST",
          `/admin/v1/organizations/${buyer.organization_id}/balance-top-ups`,
          { bearer: adminToken },
          { amount_pln: 1000 }
        )
        expect(topUp.status).toBe(200)
      }
      const number = `+4822${String(Date.now() + round).slice(-7)}`
      const added = await send(
        a(),
        "POST",
        "/admin/v1/phone-numbers",
        { bearer: adminToken },
        {
          number,
          number_type: "landline"
        }
      )
      expect(added.status).toBe(200)
      const orders = await Promise.all(
        buyers.map((buyer, i) =>
          send(
            both()[i]!,
            "POST",
            "/api/v1/phone-numbers/polish/order",
            { apiKey: buyer.api_key },
            {
              number_type: "landline"
            }
          )
        )
      )
      const statuses = orders.map((order) => order.status).sort()
      expect(statuses).toEqual([200, 409])
      // the winner paid; the loser's balance is untouched
      const loser = buyers[orders.findIndex((order) => order.status === 409)]!
      const quote = await send(b(), "GET", "/api/v1/phone-numbers/polish/quote?number_type=landline", {
        apiKey: loser.api_key
      })
      expect(quote.json.balance_pln).toBe(1000)
    }
  }, 60_000)

  // Each server keeps keys and agents in memory (LookupCache); a change on one must show on the other at once.
  it("refuses a key revoked on one server at once on the other, though both had just accepted it", async () => {
    const { organization_id } = await organization()
    for (let round = 0; round < 5; round++) {
      const issued = await send(
        a(),
        "POST",
        `/admin/v1/organizations/${organization_id}/api-keys`,
        { bearer: adminToken },
        {}
      )
      expect(issued.status).toBe(200)
      const { api_key, api_key_id } = issued.json as { api_key: string; api_key_id: number }
      // accepted twice by each: whatever either keeps, it keeps now
      for (const port of [...both(), ...both()])
        expect((await send(port, "GET", "/api/v1/agents", { apiKey: api_key })).status).toBe(200)
      const [revokedOn, other] = round % 2 === 0 ? [a(), b()] : [b(), a()]
      const revoked = await send(revokedOn, "DELETE", `/admin/v1/api-keys/${api_key_id}`, {
        bearer: adminToken
      })
      expect(revoked.status).toBe(204)
      for (const port of [other, revokedOn]) {
        const refused = await send(port, "GET", "/api/v1/agents", { apiKey: api_key })
        expect(refused.status, `round ${round}, port ${port}: ${refused.body}`).toBe(401)
      }
    }
  })

  it("refuses at once on both servers a key the organization revoked itself on one", async () => {
    const { api_key: owner } = await organization()
    for (let round = 0; round < 5; round++) {
      const created = await send(
        a(),
        "POST",
        "/api/v1/api-keys",
        { apiKey: owner },
        { name: `Round ${round}` }
      )
      expect(created.status).toBe(200)
      const { api_key, api_key_id } = created.json as { api_key: string; api_key_id: number }
      for (const port of [...both(), ...both()])
        expect((await send(port, "GET", "/api/v1/agents", { apiKey: api_key })).status).toBe(200)
      const [revokedOn, other] = round % 2 === 0 ? [a(), b()] : [b(), a()]
      expect(
        (await send(revokedOn, "DELETE", `/api/v1/api-keys/${api_key_id}`, { apiKey: owner })).status
      ).toBe(204)
      for (const port of [other, revokedOn]) {
        const refused = await send(port, "GET", "/api/v1/agents", { apiKey: api_key })
        expect(refused.status, `round ${round}, port ${port}: ${refused.body}`).toBe(401)
      }
    }
  })

  it("shows an agent changed on one server at once on both", async () => {
    const { api_key } = await organization()
    const agent = await agentOf(api_key)
    for (let round = 0; round < 5; round++) {
      for (const port of [...both(), ...both()])
        expect(
          (await send(port, "GET", `/api/v1/agents/${agent.public_id}`, { apiKey: api_key })).status
        ).toBe(200)
      const name = `Renamed ${round}`
      const changedOn = round % 2 === 0 ? a() : b()
      const patched = await send(
        changedOn,
        "PATCH",
        `/api/v1/agents/${agent.public_id}`,
        { apiKey: api_key },
        { name }
      )
      expect(patched.status).toBe(200)
      for (const port of both()) {
        const read = await send(port, "GET", `/api/v1/agents/${agent.id}`, { apiKey: api_key })
        expect((read.json as { name: string }).name).toBe(name)
      }
    }
    // archived on one: the other no longer lets it take conversations
    const archived = await send(
      a(),
      "PATCH",
      `/api/v1/agents/${agent.public_id}`,
      { apiKey: api_key },
      { status: "archived" }
    )
    expect(archived.status).toBe(200)
    const refused = await send(
      b(),
      "POST",
      `/api/v1/agents/${agent.public_id}/conversations`,
      { apiKey: api_key },
      { mode: "chat" }
    )
    expect(refused.status).toBe(409)
  })
})
