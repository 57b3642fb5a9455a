import type { Chats as ChatsModule } from "@voice-agent-platform/core"
import { Chats, DownloadLinks, RunId, OperationSpans } from "@voice-agent-platform/core"
import { Effect } from "effect"
import { Api } from "@voice-agent-platform/contract/Api.js"
import { ChatReplyResponse } from "@voice-agent-platform/contract/chats/ChatsApi.js"
import * as MediaType from "@voice-agent-platform/contract/edge/MediaType.js"
import { runResponse } from "../conversations/RunResponses.js"
import * as CoreErrors from "../errors/CoreErrors.js"
import * as Idempotent from "../idempotency/Idempotent.js"
import { CurrentOrganization } from "../middleware/Authentication.js"
import * as ChatEventStream from "./ChatEventStream.js"
import { messagesResponse, replyResponse } from "./ChatResponses.js"
import * as CapturedGroups from "../direct/CapturedGroups.js"

/** Handlers of the chats group. */
export const ChatsHandlers = CapturedGroups.group(Api, "chats", (handlers) =>
  Effect.gen(function* () {
    const chats = yield* Chats.Chats
    const signingKey = yield* DownloadLinks.LinkSigningKey
    const signing = Effect.provideService(DownloadLinks.LinkSigningKey, signingKey)
    return handlers
      .handle(
        "send",
        OperationSpans.fn("Chats.send")(function* ({ headers, path, payload, request }) {
          const organization = yield* CurrentOrganization
          const runId = RunId.RunId.make(path.run_id)
          const reply = (emit: (event: ChatsModule.ChatEvent) => Effect.Effect<void>) =>
            chats
              .send(organization.id, path.agent_id, runId, payload.text, emit)
              .pipe(Effect.map(replyResponse), Effect.mapError(CoreErrors.toHttp))
          // with an Idempotency-Key the answer is the whole reply as JSON, kept and replayed as it went out
          if (
            MediaType.accepts(request.headers["accept"], "text/event-stream") &&
            headers["Idempotency-Key"] === undefined
          ) {
            return yield* ChatEventStream.respond(reply, (answer) => answer)
          }
          return yield* Idempotent.run(
            {
              headers,
              method: "POST",
              route: "/agents/:agent_id/conversations/:run_id/messages",
              path,
              body: payload,
              success: ChatReplyResponse
            },
            reply(() => Effect.void)
          )
        })
      )
      .handle(
        "messages",
        OperationSpans.fn("Chats.messages")(function* ({ path }) {
          const organization = yield* CurrentOrganization
          return messagesResponse(
            yield* chats.messages(organization.id, path.agent_id, RunId.RunId.make(path.run_id))
          )
        }, Effect.mapError(CoreErrors.toHttp))
      )
      .handle(
        "end",
        OperationSpans.fn("Chats.end")(
          function* ({ path }) {
            const organization = yield* CurrentOrganization
            const run = yield* chats.end(organization.id, path.agent_id, RunId.RunId.make(path.run_id))
            return yield* runResponse(run)
          },
          signing,
          Effect.mapError(CoreErrors.toHttp)
        )
      )
  })
)
