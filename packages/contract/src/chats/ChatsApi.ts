import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import * as ConversationLimits from "@voice-agent-platform/core/conversation/ConversationLimits.js"
import * as Run from "@voice-agent-platform/core/runs/Run.js"
import { Schema } from "effect"
import { RunResponse } from "../conversations/ConversationsApi.js"
import { Conflict, NotFound, ServiceUnavailable } from "../errors/ApiErrors.js"
import * as Idempotent from "../idempotency/IdempotencyHeader.js"
import { Authentication } from "../middleware/Authentication.js"
import { AgentIdParam, IntId } from "../shared/Ids.js"
import { strict } from "../shared/Json.js"
import { Timestamp } from "../shared/Timestamp.js"

/** `POST …/messages`: what the user says; none to have the agent open a chat that has not started. */
export const SendMessageRequest = strict(
  Schema.Struct({
    text: Schema.optionalWith(
      Schema.String.pipe(
        Schema.maxLength(ConversationLimits.maxUserTextChars),
        Schema.filter((text) => text.trim() !== "" || "must say something (not only spaces)")
      ).annotations({
        description: `What the user says, at most ${ConversationLimits.maxUserTextChars} characters. Leave it out only to have the agent open a chat that has not started.`
      }),
      { exact: true }
    )
  }).annotations({ identifier: "SendMessageRequest" })
)

/** A tool call a reply made, as a client sees it. */
export const ChatToolCall = Schema.Struct({
  tool_uuid: Schema.String,
  name: Schema.String.annotations({ description: "The tool's name" }),
  ok: Schema.Boolean,
  error: Schema.NullOr(Schema.String).annotations({
    description:
      "Why it did not succeed: the tool's error type (`timeout`, `http_status`, …), `invalid_arguments`, `transfer_not_available_in_chat`, or why it was not run; null when it succeeded"
  })
}).annotations({ identifier: "ChatToolCall" })

/** The answer to a message. */
export const ChatReplyResponse = Schema.Struct({
  workflow_run_id: Schema.Int,
  status: Run.RunStatus,
  reply: Schema.Struct({ role: Schema.Literal("assistant"), text: Schema.String }),
  tool_calls: Schema.Array(ChatToolCall),
  ended: Schema.Boolean.annotations({ description: "True when the agent ended the chat with this reply" }),
  end_reason: Schema.NullOr(Schema.Literal("end_call"))
}).annotations({ identifier: "ChatReply" })

/** The same reply as server-sent events. */
export const ChatReplyEvents = Schema.String.pipe(
  HttpApiSchema.withEncoding({ kind: "Text", contentType: "text/event-stream" })
).annotations({
  description:
    "`event: delta` with `{text}` as the reply is written (the deltas join to `reply.text`), `event: tool_call` with a `ChatToolCall` once a tool ran, then one `event: done` with the `ChatReply`; a failure after the stream began is one `event: error` with `{status, detail}` (nothing of the message is kept)."
})

/** One entry of a chat's conversation: a message, or a tool call in its place. */
export const ChatMessageResponse = Schema.Struct({
  role: Schema.Literal("user", "assistant", "tool"),
  text: Schema.NullOr(Schema.String).annotations({ description: "What was said; null for a tool call" }),
  timestamp: Timestamp,
  tool_call: Schema.NullOr(
    Schema.Struct({
      tool_uuid: Schema.String,
      name: Schema.NullOr(Schema.String).annotations({ description: "null once the tool was deleted" }),
      ok: Schema.Boolean,
      error: Schema.NullOr(Schema.String)
    })
  )
}).annotations({ identifier: "ChatMessage" })

export const ChatMessagesResponse = Schema.Struct({
  workflow_run_id: Schema.Int,
  status: Run.RunStatus,
  messages: Schema.Array(ChatMessageResponse)
}).annotations({ identifier: "ChatMessages" })

const runPath = Schema.Struct({
  agent_id: AgentIdParam,
  run_id: IntId.annotations({ description: "The chat run's `workflow_run_id`" })
})

const refusals = `404 when the run is not this agent's (or not this organization's); 409 \`not_a_chat\` for a run of another mode, \`conversation_ended\` once the chat ended, \`turn_limit\` after ${ConversationLimits.maxUserTurns} messages, \`turn_busy\` when another message held the chat for longer than a reply may take.`

/** Chats with an agent: messages answered by its language model, the conversation so far, and its end. */
export class ChatsApi extends HttpApiGroup.make("chats")
  .add(
    HttpApiEndpoint.post("send", "/agents/:agent_id/conversations/:run_id/messages")
      .setPath(runPath)
      .setPayload(SendMessageRequest)
      .setHeaders(Idempotent.IdempotencyKeyHeader)
      .addSuccess(ChatReplyResponse)
      .addSuccess(ChatReplyEvents)
      .addError(Conflict)
      .addError(ServiceUnavailable)
      .annotate(OpenApi.Transform, Idempotent.document)
      .annotateContext(
        OpenApi.annotations({
          summary: "Send a chat message",
          description: `The agent answers the message with its prompt, its knowledge (the chunks of its knowledge documents most relevant to the message) and its tools, which run as in a call (each logged on the run; at most ${ConversationLimits.maxToolCallsPerTurn} a reply). Without \`text\`, a chat that has not started is opened: the reply is the agent's first message. The first message moves the run to \`in_progress\` (\`call.started\`); a reply that calls the agent's end-call tool ends it \`completed\` (\`ended: true\`), and its analysis follows. Messages to one chat are answered one after the other. With \`Accept: text/event-stream\` the reply streams as server-sent events (with an \`Idempotency-Key\`, it comes whole, as one \`done\` event). 503 \`model_unavailable: …\` with \`Retry-After\` when the language model could not answer (after one retry): nothing of the message is kept, so sending it again is safe. 422 for text over ${ConversationLimits.maxUserTextChars} characters, for a message without text once the chat started, and when the model refused the conversation. ${refusals}`
        })
      )
  )
  .add(
    HttpApiEndpoint.get("messages", "/agents/:agent_id/conversations/:run_id/messages")
      .setPath(runPath)
      .addSuccess(ChatMessagesResponse)
      .addError(Conflict)
      .annotateContext(
        OpenApi.annotations({
          summary: "List a chat's messages",
          description:
            "The conversation so far, in order: each message (`user`, `assistant`) with its time, and each tool call the agent made (`role: tool`) after the message it answered. After the chat ended it is read from the transcript file (empty once a retention policy removed it). 409 `not_a_chat` for a run of another mode."
        })
      )
  )
  .add(
    HttpApiEndpoint.post("end", "/agents/:agent_id/conversations/:run_id/end")
      .setPath(runPath)
      .addSuccess(RunResponse)
      .addError(Conflict)
      .annotateContext(
        OpenApi.annotations({
          summary: "End a chat",
          description: `Ends the chat \`completed\` (\`canceled\` when nothing was said yet) once a reply being written finished: \`call.ended\` goes out, the transcript is saved and the analysis follows. A chat also ends by itself after \`CHAT_IDLE_SECONDS\` (default 600) without a message. ${refusals}`
        })
      )
  )
  .addError(NotFound)
  .middleware(Authentication)
  .prefix("/api/v1") {}
