import { DownloadLinks, RunId, Runs, OperationSpans } from "@voice-agent-platform/core"
import { Effect } from "effect"
import { Api } from "@voice-agent-platform/contract/Api.js"
import * as CoreErrors from "../errors/CoreErrors.js"
import { downloadUrl } from "../files/DownloadUrls.js"
import { CurrentOrganization } from "../middleware/Authentication.js"
import * as RunPageReads from "./RunPageReads.js"
import { runResponse, transcriptResponse } from "./RunResponses.js"
import * as SessionTokens from "../voice-sessions/SessionTokens.js"
import * as CapturedGroups from "../direct/CapturedGroups.js"

/** Handlers of the conversations group. */
export const ConversationsHandlers = CapturedGroups.group(Api, "conversations", (handlers) =>
  Effect.gen(function* () {
    const runs = yield* Runs.Runs
    const signingKey = yield* DownloadLinks.LinkSigningKey
    const signing = Effect.provideService(DownloadLinks.LinkSigningKey, signingKey)
    // Identical list requests in flight share one read and one answer (see `RunPageReads`).
    const pages = RunPageReads.make(runs)
    return handlers
      .handle(
        "create",
        OperationSpans.fn("Conversations.create")(
          function* ({ path, payload }) {
            const organization = yield* CurrentOrganization
            const run = yield* runs.createConversation(organization.id, path.agent_id, payload)
            const response = yield* runResponse(run)
            if (run.mode === "chat") return response
            return { ...response, session: yield* SessionTokens.issue(run.workflow_run_id) }
          },
          signing,
          Effect.mapError(CoreErrors.toHttp)
        )
      )
      .handle(
        "list",
        OperationSpans.fn("Conversations.list")(function* ({ path, urlParams }) {
          const organization = yield* CurrentOrganization
          return yield* pages.page(organization.id, path.agent_id, urlParams)
        }, Effect.mapError(CoreErrors.toHttp))
      )
      .handle(
        "get",
        OperationSpans.fn("Conversations.get")(
          function* ({ path }) {
            const organization = yield* CurrentOrganization
            const run = yield* runs.get(organization.id, path.agent_id, RunId.RunId.make(path.run_id))
            return yield* runResponse(run)
          },
          signing,
          Effect.mapError(CoreErrors.toHttp)
        )
      )
      .handle(
        "transcript",
        OperationSpans.fn("Conversations.transcript")(
          function* ({ path, urlParams }) {
            const organization = yield* CurrentOrganization
            const transcript = yield* runs.transcript(
              organization.id,
              path.agent_id,
              RunId.RunId.make(path.run_id)
            )
            return yield* transcriptResponse(transcript, urlParams.expires_in)
          },
          signing,
          Effect.mapError(CoreErrors.toHttp)
        )
      )
      .handle(
        "recording",
        OperationSpans.fn("Conversations.recording")(
          function* ({ path, urlParams }) {
            const organization = yield* CurrentOrganization
            const recording = yield* runs.recording(
              organization.id,
              path.agent_id,
              RunId.RunId.make(path.run_id)
            )
            const link = yield* downloadUrl(recording.file_key, urlParams.expires_in)
            return {
              download_url: link.url,
              content_type: recording.content_type,
              expires_at: link.expires_at
            }
          },
          signing,
          Effect.mapError(CoreErrors.toHttp)
        )
      )
      .handle(
        "delete",
        OperationSpans.fn("Conversations.delete")(function* ({ path }) {
          const organization = yield* CurrentOrganization
          yield* runs.delete(organization.id, path.agent_id, RunId.RunId.make(path.run_id))
        }, Effect.mapError(CoreErrors.toHttp))
      )
  })
)
