import { afterAll, describe, expect, it } from "@effect/vitest"
import { TestDatabase } from "@voice-agent-platform/pg/testing"
import {
  dataDirectory,
  removeDataDirectories,
  type Running,
  send,
  start,
  stop
} from "../support/ServerProcesses.js"

/**
 * A server killed with SIGKILL in the middle of writes leaves no half-written record: after a restart every
 * record is whole, every write it acknowledged is there, money and numbers agree, and the API answers as
 * before. Run against the embedded database and against a PostgreSQL server.
 */

const adminToken = "operator-token-crash-0123456789"
const apiKey = `vap_${"C".repeat(40)}`
const numberPrice = 5899 // activation and first month of a landline, in grosze
const topUp = 100_000 // PLN

const reachable = await TestDatabase.serverReachable()
if (!reachable) TestDatabase.warnUnreachable("the SIGKILL test on PostgreSQL")

interface Acknowledged {
  readonly agents: Array<{ readonly id: number; readonly public_id: string }>
  readonly numbers: Array<number>
  readonly accepted: Array<{ readonly agent: string; readonly text: string }>
  /** Requests that got no answer: the server died under them. */
  cut: number
}

/** Writes of three kinds, each one transaction of several rows, from several clients, until `until` passes. */
const writeStorm = async (port: number, until: number, acknowledged: Acknowledged) => {
  const safely = async <A>(request: Promise<A>): Promise<A | undefined> => {
    try {
      return await request
    } catch {
      acknowledged.cut++ // the server died under this request
      return undefined
    }
  }
  const worker = async (w: number) => {
    for (let i = 0; Date.now() < until; i++) {
      const created = await safely(
        send(port, "POST", "/api/v1/agents/from-script", { apiKey }, { agent: { greeting: `Hi ${w}-${i}` } })
      )
      if (created?.status !== 200) return
      acknowledged.agents.push(created.json)
      const ordered = await safely(
        send(port, "POST", "/api/v1/phone-numbers/polish/order", { apiKey }, { number_type: "landline" })
      )
      if (ordered === undefined) return
      if (ordered.status === 200) acknowledged.numbers.push(ordered.json.phone_number.id)
      const text = `Say goodbye politely (${w}-${i}).`
      const base = `/api/v1/agents/${created.json.public_id}/improvements`
      const suggested = await safely(send(port, "POST", base, { apiKey }, { text }))
      if (suggested?.status !== 200) return
      const accepted = await safely(send(port, "POST", `${base}/${suggested.json.id}/accept`, { apiKey }))
      if (accepted === undefined) return
      if (accepted.status === 200) acknowledged.accepted.push({ agent: created.json.public_id, text })
    }
  }
  await Promise.all(Array.from({ length: 8 }, (_, w) => worker(w)))
}

/** Every page of a list. */
const everything = async (port: number, path: string): Promise<Array<any>> => {
  const items: Array<any> = []
  for (let page = 1; ; page++) {
    const answer = await send(port, "GET", `${path}?limit=100&page=${page}`, { apiKey })
    expect(answer.status).toBe(200)
    items.push(...answer.json.items)
    if (page >= answer.json.total_pages) return items
  }
}

const crashAndRestart = async (env: Record<string, string>) => {
  let server: Running = await start({ ...env, ADMIN_TOKEN: adminToken, BOOTSTRAP_API_KEY: apiKey })
  try {
    const admin = { bearer: adminToken }
    const me = await send(server.port, "GET", "/api/v1/phone-numbers/polish/quote?number_type=landline", {
      apiKey
    })
    expect(me.status).toBe(200)
    // the bootstrap says which organization the key belongs to
    const organizationId = Number(/organization (\d+)/.exec(server.output())?.[1])
    expect(organizationId).toBeGreaterThan(0)
    expect(
      (
        await send(server.port, "POST", `/admin/v1/organizations/${organizationId}/balance-top-ups`, admin, {
          amount_pln: topUp
        })
      ).status
    ).toBe(200)
    for (let n = 0; n < 60; n++) {
      const added = await send(server.port, "POST", "/admin/v1/phone-numbers", admin, {
        number: `+4822${String(1_000_000 + n)}`,
        number_type: "landline"
      })
      expect(added.status).toBe(200)
    }

    const acknowledged: Acknowledged = { agents: [], numbers: [], accepted: [], cut: 0 }
    const storm = writeStorm(server.port, Date.now() + 60_000, acknowledged)
    // let writes of every kind flow (however slow the machine), then kill the server in the middle of them
    const flowing = () =>
      acknowledged.agents.length >= 16 &&
      acknowledged.numbers.length >= 4 &&
      acknowledged.accepted.length >= 4
    for (const deadline = Date.now() + 45_000; !flowing() && Date.now() < deadline;) {
      await new Promise((resolve) => setTimeout(resolve, 25))
    }
    expect(flowing()).toBe(true)
    server.child.kill("SIGKILL")
    await server.exited
    await storm
    // requests were in flight when it died
    expect(acknowledged.cut).toBeGreaterThan(0)

    server = await start(server.env)
    const port = server.port

    // every agent is whole: readable with its current definition, and every acknowledged one is there
    const agents = await everything(port, "/api/v1/agents")
    const listed = new Set(agents.map((agent) => agent.id))
    for (const agent of acknowledged.agents) expect(listed.has(agent.id)).toBe(true)
    for (const agent of agents) {
      const read = await send(port, "GET", `/api/v1/agents/${agent.public_id}`, { apiKey })
      expect(read.status).toBe(200)
      expect(read.json.current_definition_id).toBe(agent.current_definition_id)
      expect(typeof read.json.workflow_definition.system_prompt).toBe("string")
    }
    // every acknowledged acceptance is in its agent's prompt
    for (const { agent, text } of acknowledged.accepted) {
      const read = await send(port, "GET", `/api/v1/agents/${agent}`, { apiKey })
      expect(read.json.workflow_definition.system_prompt).toContain(text)
    }
    // and every suggestion is whole, acknowledged or not: accepted ones are in the prompt once, with the
    // version they made; pending ones are not in it
    for (const agent of agents) {
      const prompt: string = (await send(port, "GET", `/api/v1/agents/${agent.public_id}`, { apiKey })).json
        .workflow_definition.system_prompt
      for (const suggestion of await everything(port, `/api/v1/agents/${agent.public_id}/improvements`)) {
        const times = prompt.split(suggestion.text).length - 1
        expect(times).toBe(suggestion.status === "accepted" ? 1 : 0)
        expect(suggestion.applied_definition_id === null).toBe(suggestion.status !== "accepted")
      }
    }
    // numbers and money agree: each number held was paid for exactly once
    const numbers = await everything(port, "/api/v1/phone-numbers")
    const held = new Set(numbers.map((number) => number.id))
    for (const id of acknowledged.numbers) expect(held.has(id)).toBe(true)
    const quote = await send(port, "GET", "/api/v1/phone-numbers/polish/quote?number_type=landline", {
      apiKey
    })
    expect(Math.round(quote.json.balance_pln * 100)).toBe(topUp * 100 - numbers.length * numberPrice)

    // the API answers as before
    expect((await send(port, "GET", "/health", {})).status).toBe(200)
    const fresh = await send(
      port,
      "POST",
      "/api/v1/agents/from-script",
      { apiKey },
      { agent: { greeting: "After" } }
    )
    expect(fresh.status).toBe(200)
    expect((await send(port, "GET", `/api/v1/agents/${fresh.json.public_id}`, { apiKey })).status).toBe(200)
  } finally {
    await stop(server)
  }
}

describe("a server killed in the middle of writes", () => {
  afterAll(removeDataDirectories)

  it("leaves no half-written record in the embedded database, and serves again after a restart", async () => {
    await crashAndRestart({ DATA_DIR: dataDirectory() })
  }, 180_000)

  it.skipIf(!reachable)(
    "leaves no half-written record in PostgreSQL, and serves again after a restart",
    async () => {
      const database = await TestDatabase.createDatabase()
      try {
        await crashAndRestart({
          DATABASE_URL: TestDatabase.databaseUrl(database),
          ENCRYPTION_KEY: "an-encryption-key-for-the-crash-test-0123"
        })
      } finally {
        await TestDatabase.dropDatabase(database)
      }
    },
    180_000
  )
})
