// The chat bench's load: `concurrency` chats at once, each following its plan (`ChatWorld.plan`): the
// run is created (or taken from runs made beforehand), its messages sent one after the other (JSON, or
// server-sent events for the streamed ones), each timed at the client from the request's start to the
// last byte of the answer; then the chat is ended (`POST …/end`) unless the agent ended it or the caller
// keeps it open. Bounded in count (`turns`) and time (`deadline`); loopback only.
import { Agent, request } from "node:http"
import type { ChatAgent, ChatPlan } from "./ChatWorld.js"
import { plan } from "./ChatWorld.js"

/** One answered (or failed) message. */
export interface TimedTurn {
  readonly text: string
  readonly streamed: boolean
  /** From the request's start to the answer's last byte. */
  readonly wallMs: number
  readonly status: number
  /** Tool calls the reply reports; -1 when it could not be read. */
  readonly toolCalls: number
  readonly ended: boolean
  readonly error: string | null
}

/** A chat run the load may use: the agent's, not started. */
export interface ChatRun {
  readonly agent: ChatAgent
  readonly runId: number
}

/** What a load run did. */
export interface LoadRun {
  readonly turns: ReadonlyArray<TimedTurn>
  readonly seconds: number
  /** Runs whose chat was ended (by `POST …/end` or by the agent), in the order they ended. */
  readonly ended: ReadonlyArray<ChatRun>
  /** Runs left open (`keepOpen`). */
  readonly open: ReadonlyArray<ChatRun>
  readonly endMs: ReadonlyArray<number>
}

/** One request over the agent; its status, text and wall time (the body read to its end). */
const send = (
  agent: Agent,
  port: number,
  method: string,
  path: string,
  headers: Record<string, string>,
  body: string | undefined,
  timeoutMs: number
) =>
  new Promise<{ status: number; text: string; wallMs: number }>((resolve) => {
    const started = performance.now()
    let settled = false
    const settle = (status: number, text: string) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      resolve({ status, text, wallMs: performance.now() - started })
    }
    const req = request({ host: "127.0.0.1", port, method, path, headers, agent }, (res) => {
      let text = ""
      res.setEncoding("utf8")
      res.on("data", (chunk: string) => (text += chunk))
      res.on("end", () => settle(res.statusCode ?? 0, text))
      res.on("error", (error) => settle(0, String(error)))
    })
    const timer = setTimeout(() => {
      req.destroy()
      settle(0, "timeout")
    }, timeoutMs)
    req.on("error", (error) => settle(0, String(error)))
    req.end(body)
  })

/** The reply of a JSON answer, or of a stream's `done` event. */
const replyOf = (text: string, streamed: boolean): { tool_calls: Array<unknown>; ended: boolean } => {
  if (!streamed) return JSON.parse(text)
  const done = text.split("\n\n").find((event) => event.startsWith("event: done\n"))
  if (done === undefined) throw new Error(`no done event in ${text.slice(-300)}`)
  return JSON.parse(done.slice(done.indexOf("data: ") + 6))
}

/** Creates a chat run of the agent through the API. */
export const createRun = async (agent: Agent, port: number, chatAgent: ChatAgent, number: number) => {
  const created = await send(
    agent,
    port,
    "POST",
    `/api/v1/agents/${chatAgent.agentId}/conversations`,
    { "x-api-key": chatAgent.apiKey, "content-type": "application/json" },
    JSON.stringify({ mode: "chat", initial_context: { first_name: `Customer ${number}`, n: number } }),
    30_000
  )
  if (created.status !== 200) throw new Error(`creating a chat answered ${created.status}: ${created.text}`)
  return { agent: chatAgent, runId: JSON.parse(created.text).workflow_run_id as number }
}

/**
 * Runs chats `firstChat`, `firstChat + 1`, … (`concurrency` at a time) until `turns` messages were answered
 * or `deadline` (ms since the epoch). `runFor` gives each chat its run; with `keepOpen` no chat is ended
 * by the load (the agent may still end one); `end` false: never `POST …/end` (a server without it).
 */
export const runChats = async (options: {
  readonly port: number
  readonly agents: ReadonlyArray<ChatAgent>
  readonly concurrency: number
  readonly turns: number
  readonly firstChat: number
  readonly deadline: number
  readonly runFor?: (chat: ChatPlan, number: number) => Promise<ChatRun>
  readonly keepOpen?: boolean
  readonly timeoutMs?: number
}): Promise<LoadRun> => {
  const agent = new Agent({ keepAlive: true, maxSockets: options.concurrency * 2 })
  const timeoutMs = options.timeoutMs ?? 60_000
  const turns: Array<TimedTurn> = []
  const ended: Array<ChatRun> = []
  const open: Array<ChatRun> = []
  const endMs: Array<number> = []
  let nextChat = options.firstChat
  let failures = 0
  const runFor = options.runFor ?? ((chat, number) => createRun(agent, options.port, chat.agent, number))
  const more = () => turns.length < options.turns && Date.now() < options.deadline && failures < 20
  const started = performance.now()
  const worker = async () => {
    while (more()) {
      const number = nextChat++
      const chat = plan(options.agents, number)
      const run = await runFor(chat, number)
      const path = `/api/v1/agents/${chat.agent.agentId}/conversations/${run.runId}`
      let endedByAgent = false
      let sent = 0
      for (const message of chat.messages) {
        if (!more()) break
        sent++
        const headers: Record<string, string> = {
          "x-api-key": chat.agent.apiKey,
          "content-type": "application/json",
          ...(message.streamed ? { accept: "text/event-stream" } : {})
        }
        const answer = await send(
          agent,
          options.port,
          "POST",
          `${path}/messages`,
          headers,
          JSON.stringify({ text: message.text }),
          timeoutMs
        )
        let toolCalls = -1
        let error: string | null =
          answer.status === 200 ? null : `${answer.status} ${answer.text.slice(0, 200)}`
        try {
          if (error === null) {
            const reply = replyOf(answer.text, message.streamed)
            toolCalls = reply.tool_calls.length
            endedByAgent = reply.ended
          }
        } catch (caught) {
          error = String(caught)
        }
        if (error !== null) failures++
        turns.push({
          text: message.text,
          streamed: message.streamed,
          wallMs: answer.wallMs,
          status: answer.status,
          toolCalls,
          ended: endedByAgent,
          error
        })
        if (endedByAgent || error !== null) break
      }
      if (endedByAgent) ended.push(run)
      else if (options.keepOpen === true) {
        // a chat the load stopped before its first message has nothing to analyse: it is not kept
        if (sent > 0) open.push(run)
      } else {
        const end = await send(
          agent,
          options.port,
          "POST",
          `${path}/end`,
          { "x-api-key": chat.agent.apiKey },
          undefined,
          timeoutMs
        )
        if (end.status === 200) {
          endMs.push(end.wallMs)
          ended.push(run)
        } else failures++
      }
    }
  }
  await Promise.all(Array.from({ length: options.concurrency }, worker))
  const seconds = (performance.now() - started) / 1000
  agent.destroy()
  return { turns, seconds, ended, open, endMs }
}

/** Ends chats, `concurrency` at a time; answers each end's wall time. */
export const endChats = async (port: number, runs: ReadonlyArray<ChatRun>, concurrency: number) => {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency })
  const times: Array<number> = []
  let next = 0
  const worker = async () => {
    while (next < runs.length) {
      const run = runs[next++]!
      const end = await send(
        agent,
        port,
        "POST",
        `/api/v1/agents/${run.agent.agentId}/conversations/${run.runId}/end`,
        { "x-api-key": run.agent.apiKey },
        undefined,
        60_000
      )
      if (end.status !== 200) throw new Error(`ending run ${run.runId} answered ${end.status}: ${end.text}`)
      times.push(end.wallMs)
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker))
  agent.destroy()
  return times
}

/** A run's analysis status, read through the API. */
export const analysisStatus = async (port: number, run: ChatRun) => {
  const read = await send(
    new Agent({ keepAlive: false }),
    port,
    "GET",
    `/api/v1/agents/${run.agent.agentId}/conversations/${run.runId}`,
    { "x-api-key": run.agent.apiKey },
    undefined,
    30_000
  )
  if (read.status !== 200) throw new Error(`reading run ${run.runId} answered ${read.status}`)
  return JSON.parse(read.text).analysis_status as string | null
}
