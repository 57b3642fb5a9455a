// The hand-written baseline of `npm run bench:chat`: `POST /api/v1/agents/{agent_id}/conversations/{run_id}/
// messages` done plainly over node:http, per message: the key checked (one statement), the agent and the
// run with its agent version read (two), the conversation so far read (one), the model asked over HTTP
// (streamed Chat Completions, as the engine asks), the user's message and the reply appended in one
// transaction with the run's status and last activity (BEGIN, one INSERT of both rows, one UPDATE,
// COMMIT), and the reply answered as JSON or, for `Accept: text/event-stream`, as `delta` events and a
// `done` event. No framework, no schemas, no tools offered, no knowledge search, no turn held across
// servers: what a small honest chat server must do at least.
import { createHash } from "node:crypto"
import type { IncomingMessage, ServerResponse } from "node:http"

/** Runs one statement with positional parameters and answers its rows. */
export type Query = (text: string, params: ReadonlyArray<unknown>) => Promise<ReadonlyArray<any>>

/** A database: statements, and statements in one transaction. */
export interface Database {
  readonly query: Query
  readonly transaction: <A>(work: (query: Query) => Promise<A>) => Promise<A>
}

const route = /^\/api\/v1\/agents\/([^/?]+)\/conversations\/(\d+)\/messages$/

const send = (res: ServerResponse, status: number, body: unknown) => {
  const text = JSON.stringify(body)
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) })
  res.end(text)
}

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    let text = ""
    req.setEncoding("utf8")
    req.on("data", (chunk: string) => {
      text += chunk
      if (text.length > 64_000) req.destroy(new Error("body too large"))
    })
    req.on("end", () => resolve(text))
    req.on("error", reject)
  })

/**
 * Asks the model (a streamed Chat Completions request) and answers the reply's text; `onDelta` is told
 * each piece of text as it comes.
 */
const askModel = async (
  baseUrl: string,
  messages: ReadonlyArray<{ role: string; content: string }>,
  onDelta: (text: string) => void
) => {
  const response = await fetch(`${baseUrl}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      model: "gpt-4o-mini",
      messages,
      stream: true,
      stream_options: { include_usage: true }
    }),
    signal: AbortSignal.timeout(30_000)
  })
  if (response.status !== 200 || response.body === null)
    throw new Error(`the model answered ${response.status}`)
  let text = ""
  let buffered = ""
  const decoder = new TextDecoder()
  for await (const chunk of response.body) {
    buffered += decoder.decode(chunk, { stream: true })
    let end: number
    while ((end = buffered.indexOf("\n\n")) >= 0) {
      const event = buffered.slice(0, end)
      buffered = buffered.slice(end + 2)
      if (!event.startsWith("data: ") || event === "data: [DONE]") continue
      const delta = JSON.parse(event.slice(6)).choices?.[0]?.delta?.content
      if (typeof delta === "string" && delta !== "") {
        text += delta
        onDelta(delta)
      }
    }
  }
  return text
}

/** The request handler over `database`, asking the model at `modelBaseUrl` (`LLM_BASE_URL`). */
export const handler =
  (database: Database, modelBaseUrl: string) => async (req: IncomingMessage, res: ServerResponse) => {
    try {
      const match = route.exec(req.url ?? "")
      if (req.method !== "POST" || match === null) return send(res, 404, { detail: "Not Found" })
      const key = req.headers["x-api-key"]
      if (typeof key !== "string" || !/^vap_[0-9A-Za-z]{40}$/.test(key))
        return send(res, 401, { detail: "Invalid API key" })
      const body = JSON.parse(await readBody(req)) as { text?: unknown }
      if (typeof body.text !== "string" || body.text.trim() === "" || body.text.length > 4000)
        return send(res, 422, { detail: "text must be 1 to 4000 characters" })
      const text = body.text
      const hash = createHash("sha256").update(key).digest("hex")
      const [found] = await database.query(
        "SELECT organization_id FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL",
        [hash]
      )
      if (found === undefined) return send(res, 401, { detail: "Invalid API key" })
      const organizationId = found.organization_id
      const [agent] = await database.query(
        "SELECT id FROM agents WHERE organization_id = $1 AND public_id = $2",
        [organizationId, decodeURIComponent(match[1]!)]
      )
      if (agent === undefined) return send(res, 404, { detail: "Agent not found" })
      const runId = Number(match[2])
      const [run] = await database.query(
        `SELECT r.status, r.mode, d.workflow_definition ->> 'system_prompt' AS system_prompt
       FROM runs r JOIN agent_definitions d ON d.id = r.agent_definition_id
       WHERE r.organization_id = $1 AND r.workflow_run_id = $2 AND r.workflow_id = $3`,
        [organizationId, runId, agent.id]
      )
      if (run === undefined) return send(res, 404, { detail: "Conversation not found" })
      if (run.mode !== "chat" || !["initialized", "in_progress"].includes(run.status))
        return send(res, 409, { detail: "conversation_ended" })
      const history = await database.query(
        "SELECT role, text FROM call_fragments WHERE run_id = $1 AND organization_id = $2 ORDER BY id",
        [runId, organizationId]
      )
      const receivedAt = new Date()
      const streamed = (req.headers["accept"] ?? "").includes("text/event-stream")
      if (streamed)
        res.writeHead(200, {
          "content-type": "text/event-stream; charset=utf-8",
          "cache-control": "no-cache"
        })
      const reply = await askModel(
        modelBaseUrl,
        [
          { role: "system", content: run.system_prompt ?? "" },
          ...history.map((row) => ({ role: row.role as string, content: row.text as string })),
          { role: "user", content: text }
        ],
        (delta) =>
          streamed ? res.write(`event: delta\ndata: ${JSON.stringify({ text: delta })}\n\n`) : undefined
      )
      const repliedAt = new Date(Math.max(Date.now(), receivedAt.getTime() + 1))
      await database.transaction(async (query) => {
        await query(
          `INSERT INTO call_fragments (organization_id, run_id, role, text, "timestamp")
         VALUES ($1, $2, 'user', $3, $4), ($1, $2, 'assistant', $5, $6)`,
          [organizationId, runId, text, receivedAt, reply, repliedAt]
        )
        await query(
          `UPDATE runs SET status = 'in_progress', last_activity_at = $3
         WHERE organization_id = $1 AND workflow_run_id = $2`,
          [organizationId, runId, repliedAt]
        )
      })
      const answer = {
        workflow_run_id: runId,
        status: "in_progress",
        reply: { role: "assistant", text: reply },
        tool_calls: [],
        ended: false,
        end_reason: null
      }
      if (!streamed) return send(res, 200, answer)
      res.end(`event: done\ndata: ${JSON.stringify(answer)}\n\n`)
    } catch (error) {
      if (res.headersSent) res.destroy()
      else send(res, 500, { detail: String(error) })
    }
  }
