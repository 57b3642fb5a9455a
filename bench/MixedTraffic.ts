// Users' traffic for the runs list (issue #28): several organizations, each with its own key and agents,
// every request choosing a key, one of that organization's agents, a page and a size at random, so two
// identical reads at once are rare. Seeded through the public API (and the operator API for the
// organizations), so the engine and the hand-written servers read the same rows.
import { random } from "./ChatWorld.js"
import { call } from "./ServerProcess.js"

/** The world's shape: the 4 organizations × 5 agents × 60 runs. */
export const shape = { organizations: 4, agents: 5, runs: 60 } as const

/** The pages and sizes a request chooses from. */
export const pages = [1, 2] as const
export const limits = [10, 20, 50] as const

/** One organization's key and its agents' public ids. */
export interface Tenant {
  readonly apiKey: string
  readonly agents: ReadonlyArray<string>
}

const json = (answer: { readonly status: number; readonly text: string }, what: string) => {
  if (answer.status !== 200)
    throw new Error(`${what} answered ${answer.status}: ${answer.text.slice(0, 300)}`)
  return JSON.parse(answer.text)
}

/** Makes the organizations (through the operator API, `adminToken`), their agents and runs. */
export const seed = async (port: number, adminToken: string): Promise<ReadonlyArray<Tenant>> => {
  const tenants: Array<Tenant> = []
  for (let o = 0; o < shape.organizations; o++) {
    const created = json(
      await call(
        port,
        "POST",
        "/admin/v1/organizations",
        { authorization: `Bearer ${adminToken}` },
        {
          name: `Bench organization ${o + 1}`
        }
      ),
      "creating an organization"
    )
    const headers = { "x-api-key": created.api_key as string }
    const agents: Array<string> = []
    for (let a = 0; a < shape.agents; a++) {
      const agent = json(
        await call(port, "POST", "/api/v1/agents/from-script", headers, {
          agent: { greeting: `Hello from agent ${a + 1} of organization ${o + 1}` }
        }),
        "creating an agent"
      )
      agents.push(agent.public_id)
      for (let r = 0; r < shape.runs; r++) {
        json(
          await call(port, "POST", `/api/v1/agents/${agent.public_id}/conversations`, headers, {
            mode: "chat",
            initial_context: { customer: `Customer ${o}-${a}-${r}`, phone_number: "+48500000100" }
          }),
          "creating a run"
        )
      }
    }
    tenants.push({ apiKey: created.api_key, agents })
  }
  return tenants
}

/** One of `items`, chosen by the generator (`random`, the chat bench's: the same seed, the same traffic). */
const pick = <A>(next: () => number, items: ReadonlyArray<A>): A => items[Math.floor(next() * items.length)]!

/** The runs-list path of one agent, page and size. */
export const listPath = (agent: string, page: number, limit: number) =>
  `/api/v1/agents/${agent}/conversations?page=${page}&limit=${limit}`

/** Every path a request may ask, with its key: what a bench checks the servers agree on. */
export const everyRequest = (tenants: ReadonlyArray<Tenant>) =>
  tenants.flatMap((tenant) =>
    tenant.agents.flatMap((agent) =>
      pages.flatMap((page) =>
        limits.map((limit) => ({
          path: listPath(agent, page, limit),
          headers: { "x-api-key": tenant.apiKey }
        }))
      )
    )
  )

/** A request chooser for the load generator: a random key, agent, page and size each time. */
export const requests = (tenants: ReadonlyArray<Tenant>, seed = 28) => {
  const next = random(seed)
  return () => {
    const tenant = pick(next, tenants)
    return {
      path: listPath(pick(next, tenant.agents), pick(next, pages), pick(next, limits)),
      headers: { "x-api-key": tenant.apiKey }
    }
  }
}
