import type { Fragmenting, ScriptedReply } from "./FakeScript.js"

/**
 * The fake server's model, deterministic and without any knowledge: for a request with no scripted
 * answer it replies `You said: <the last user message>` (or a greeting when there is none), and for a
 * `json_schema` request an object of the schema filled from the schema alone (a string `"example"`, the
 * minimum or 0, false, null wherever null is allowed, the first enum value, the fewest array items).
 * When the last message is the user's and names an offered function (its name as a whole word, and
 * `tool_choice` is not `none`), it calls that function instead, its arguments filled from the function's
 * parameters the same way; given the function's result, it replies as above. Token counts are word
 * counts. It also writes any reply as a Chat Completions body or stream.
 */

type Json = { readonly [key: string]: unknown }

const isRecord = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/** Words in a text: what the fake counts as tokens. */
export const words = (text: string): number => text.split(/\s+/).filter((word) => word !== "").length

/** The text of a message's content (a string, or text parts). */
const textOf = (content: unknown): string =>
  typeof content === "string"
    ? content
    : Array.isArray(content)
      ? content
          .map((part) => (isRecord(part) && typeof part["text"] === "string" ? part["text"] : ""))
          .join(" ")
      : ""

const messagesOf = (body: Json): ReadonlyArray<Json> =>
  Array.isArray(body["messages"]) ? body["messages"].filter(isRecord) : []

/** The prompt's words: every message's content. */
export const promptWords = (body: Json): number =>
  messagesOf(body).reduce((sum, message) => sum + words(textOf(message["content"])), 0)

/** A value of `schema` (JSON Schema, `$ref`s into `$defs` or `definitions` resolved), from the schema alone. */
export const fill = (schema: unknown, root: unknown = schema, depth = 0): unknown => {
  if (!isRecord(schema) || depth > 32) return null
  if (typeof schema["$ref"] === "string") {
    const name = schema["$ref"].replace(/^#\/(\$defs|definitions)\//, "")
    const defs = isRecord(root) ? (root["$defs"] ?? root["definitions"]) : undefined
    return fill(isRecord(defs) ? defs[name] : undefined, root, depth + 1)
  }
  if ("const" in schema) return schema["const"]
  if (Array.isArray(schema["enum"]) && schema["enum"].length > 0) return schema["enum"][0]
  const options = schema["anyOf"] ?? schema["oneOf"]
  if (Array.isArray(options) && options.length > 0) {
    if (options.some((option) => isRecord(option) && option["type"] === "null")) return null
    return fill(options[0], root, depth + 1)
  }
  if (Array.isArray(schema["allOf"]) && schema["allOf"].length > 0)
    return fill(schema["allOf"][0], root, depth + 1)
  const types = Array.isArray(schema["type"]) ? schema["type"] : [schema["type"]]
  if (types.includes("null")) return null
  const type = types[0] ?? (isRecord(schema["properties"]) ? "object" : undefined)
  switch (type) {
    case "string": {
      if (schema["format"] === "date") return "2026-01-15"
      if (schema["format"] === "date-time") return "2026-01-15T10:00:00.000Z"
      const min = typeof schema["minLength"] === "number" ? schema["minLength"] : 0
      return "example".padEnd(min, "x")
    }
    case "number":
    case "integer":
      return typeof schema["minimum"] === "number" ? schema["minimum"] : 0
    case "boolean":
      return false
    case "array": {
      const min = typeof schema["minItems"] === "number" ? Math.min(schema["minItems"], 100) : 0
      return Array.from({ length: min }, () => fill(schema["items"], root, depth + 1))
    }
    case "object": {
      const properties = isRecord(schema["properties"]) ? schema["properties"] : {}
      return Object.fromEntries(
        Object.entries(properties).map(([key, property]) => [key, fill(property, root, depth + 1)])
      )
    }
    default:
      return null
  }
}

/** An offered function (`{name, parameters}`) the last message names, when it is the user's and a call is allowed. */
const namedFunction = (body: Json): Json | undefined => {
  const tools = Array.isArray(body["tools"]) ? body["tools"].filter(isRecord) : []
  const last = messagesOf(body).at(-1)
  if (tools.length === 0 || body["tool_choice"] === "none" || last?.["role"] !== "user") return undefined
  const said = textOf(last["content"])
  return tools
    .map((tool) => tool["function"])
    .filter(isRecord)
    .find((fn) => {
      const name = fn["name"]
      // function names are `[a-zA-Z0-9_-]`: only `-` needs escaping in a pattern
      return typeof name === "string" && new RegExp(`(^|\\W)${name.replace(/-/g, "\\-")}($|\\W)`).test(said)
    })
}

/** What the fake's model answers a request with no scripted answer. */
export const defaultReply = (body: Json): ScriptedReply => {
  const format = body["response_format"]
  if (isRecord(format) && format["type"] === "json_schema" && isRecord(format["json_schema"])) {
    return { content: JSON.stringify(fill(format["json_schema"]["schema"])) }
  }
  if (isRecord(format) && format["type"] === "json_object") return { content: "{}" }
  const named = namedFunction(body)
  if (named !== undefined) {
    const args = fill(named["parameters"] ?? { type: "object", properties: {} })
    return { tool_calls: [{ name: String(named["name"]), arguments: JSON.stringify(args ?? {}) }] }
  }
  const users = messagesOf(body).filter((message) => message["role"] === "user")
  const last = users.length === 0 ? undefined : textOf(users[users.length - 1]!["content"])
  return { content: last === undefined ? "Hello! How can I help you today?" : `You said: ${last}` }
}

/** The reply's usage: as scripted, else word counts. */
const usageOf = (reply: ScriptedReply, body: Json) =>
  reply.usage ?? {
    prompt_tokens: promptWords(body),
    completion_tokens: words(reply.content ?? "") + (reply.tool_calls ?? []).length
  }

const finishOf = (reply: ScriptedReply) =>
  reply.finish_reason ?? ((reply.tool_calls ?? []).length > 0 ? "tool_calls" : "stop")

const modelOf = (body: Json) => (typeof body["model"] === "string" ? body["model"] : "fake-model")

const callId = (index: number, id: string | undefined) => id ?? `call_fake_${index}`

/** A whole completion (`chat.completion`). */
export const completion = (reply: ScriptedReply, body: Json): Json => ({
  id: "chatcmpl-fake",
  object: "chat.completion",
  created: 1_768_471_200,
  model: modelOf(body),
  choices: [
    {
      index: 0,
      message: {
        role: "assistant",
        content: reply.refusal === undefined ? (reply.content ?? null) : null,
        ...(reply.refusal === undefined ? {} : { refusal: reply.refusal }),
        ...((reply.tool_calls ?? []).length === 0
          ? {}
          : {
              tool_calls: reply.tool_calls!.map((call, index) => ({
                id: callId(index, call.id),
                type: "function",
                function: { name: call.name, arguments: call.arguments }
              }))
            })
      },
      finish_reason: finishOf(reply)
    }
  ],
  usage: (() => {
    const usage = usageOf(reply, body)
    return { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens }
  })()
})

/** Text cut in pieces of `size` characters, or after each word (its space kept) when no size is given. */
export const pieces = (text: string, size: number | undefined): ReadonlyArray<string> => {
  if (text === "") return []
  if (size === undefined) return text.match(/\S+\s*|\s+/g) ?? [text]
  const cut: Array<string> = []
  for (let start = 0; start < text.length; start += size) cut.push(text.slice(start, start + size))
  return cut
}

/** A stream chunk (`chat.completion.chunk`) with one delta. */
const chunk = (body: Json, delta: Json, finishReason: string | null = null): Json => ({
  id: "chatcmpl-fake",
  object: "chat.completion.chunk",
  created: 1_768_471_200,
  model: modelOf(body),
  choices: [{ index: 0, delta, finish_reason: finishReason }]
})

/**
 * The reply as stream chunks, in the order OpenAI sends them: the role, text deltas (or refusal
 * deltas), each call's first fragment (index, id, name) then its arguments in pieces, the finish, and the
 * usage chunk (no choices) when `stream_options.include_usage` asks for it. `[DONE]` is not included.
 */
export const streamChunks = (
  reply: ScriptedReply,
  body: Json,
  fragmenting: Fragmenting = {}
): ReadonlyArray<Json> => {
  const chunks: Array<Json> = [chunk(body, { role: "assistant", content: "" })]
  for (const piece of pieces(reply.content ?? "", fragmenting.piece))
    chunks.push(chunk(body, { content: piece }))
  for (const piece of pieces(reply.refusal ?? "", fragmenting.piece))
    chunks.push(chunk(body, { refusal: piece }))
  const calls = (reply.tool_calls ?? []).map((call, index) => [
    chunk(body, {
      tool_calls: [
        { index, id: callId(index, call.id), type: "function", function: { name: call.name, arguments: "" } }
      ]
    }),
    ...pieces(call.arguments, fragmenting.piece ?? 8).map((piece) =>
      chunk(body, { tool_calls: [{ index, function: { arguments: piece } }] })
    )
  ])
  if (fragmenting.interleave === true) {
    const longest = Math.max(0, ...calls.map((fragments) => fragments.length))
    for (let turn = 0; turn < longest; turn++) {
      for (const fragments of calls) if (turn < fragments.length) chunks.push(fragments[turn]!)
    }
  } else {
    for (const fragments of calls) chunks.push(...fragments)
  }
  chunks.push(chunk(body, {}, finishOf(reply)))
  const options = body["stream_options"]
  if (isRecord(options) && options["include_usage"] === true) {
    const usage = usageOf(reply, body)
    chunks.push({
      id: "chatcmpl-fake",
      object: "chat.completion.chunk",
      created: 1_768_471_200,
      model: modelOf(body),
      choices: [],
      usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens }
    })
  }
  return chunks
}
