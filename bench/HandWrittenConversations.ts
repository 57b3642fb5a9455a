// The hand-written baseline of `npm run bench:http`: `GET /api/v1/agents/{agent_id}/conversations` done
// plainly over node:http, with the four obvious statements (the key, the agent, the kept count, the page)
// and `JSON.stringify`. No framework, no schemas; the same answer bytes as the engine's (the bench checks).
import { createHash } from "node:crypto"
import type { IncomingMessage, ServerResponse } from "node:http"

/** Runs one statement with positional parameters and answers its rows. */
export type Query = (text: string, params: ReadonlyArray<unknown>) => Promise<ReadonlyArray<any>>

const route = /^\/api\/v1\/agents\/([^/?]+)\/conversations(?:\?(.*))?$/

const send = (res: ServerResponse, status: number, body: unknown) => {
  const text = JSON.stringify(body)
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) })
  res.end(text)
}

const iso = (value: unknown) =>
  value === null ? null : value instanceof Date ? value.toISOString() : new Date(String(value)).toISOString()

/** The request handler over `query`. */
export const handler = (query: Query) => async (req: IncomingMessage, res: ServerResponse) => {
  try {
    const match = route.exec(req.url ?? "")
    if (req.method !== "GET" || match === null) return send(res, 404, { detail: "Not Found" })
    const params = new URLSearchParams(match[2] ?? "")
    const page = Number(params.get("page") ?? 1)
    const limit = Number(params.get("limit") ?? 50)
    if (!Number.isInteger(page) || page < 1 || !Number.isInteger(limit) || limit < 1 || limit > 100)
      return send(res, 422, { detail: "bad page" })
    const key = req.headers["x-api-key"]
    if (typeof key !== "string" || !/^vap_[0-9A-Za-z]{40}$/.test(key))
      return send(res, 401, { detail: "Invalid API key" })
    const hash = createHash("sha256").update(key).digest("hex")
    const [found] = await query(
      "SELECT organization_id FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL",
      [hash]
    )
    if (found === undefined) return send(res, 401, { detail: "Invalid API key" })
    const organizationId = found.organization_id
    const [agent] = await query("SELECT id FROM agents WHERE organization_id = $1 AND public_id = $2", [
      organizationId,
      decodeURIComponent(match[1]!)
    ])
    if (agent === undefined) return send(res, 404, { detail: "Agent not found" })
    const [count] = await query(
      "SELECT total FROM run_counts WHERE organization_id = $1 AND workflow_id = $2",
      [organizationId, agent.id]
    )
    const total = count === undefined ? 0 : Number(count.total)
    const rows = await query(
      `SELECT workflow_run_id, workflow_id, mode, status, initial_context, gathered_context,
         duration_seconds, created_at, ended_at
       FROM runs WHERE organization_id = $1 AND workflow_id = $2
       ORDER BY created_at DESC, workflow_run_id DESC LIMIT $3 OFFSET $4`,
      [organizationId, agent.id, limit, (page - 1) * limit]
    )
    send(res, 200, {
      items: rows.map((row) => ({
        workflow_run_id: Number(row.workflow_run_id),
        workflow_id: Number(row.workflow_id),
        mode: row.mode,
        status: row.status,
        initial_context: row.initial_context,
        gathered_context: row.gathered_context,
        duration_seconds: row.duration_seconds,
        created_at: iso(row.created_at),
        ended_at: iso(row.ended_at)
      })),
      total_count: total,
      total_pages: Math.ceil(total / limit),
      page,
      limit
    })
  } catch (error) {
    send(res, 500, { detail: String(error) })
  }
}
