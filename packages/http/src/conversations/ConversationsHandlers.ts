import { HttpApiBuilder } from "@effect/platform"
import { DownloadLinks, RunId, Runs } from "@voice-agent-platform/core"
import { Effect } from "effect"
import { Api } from "@voice-agent-platform/contract/Api.js"
import * as CoreErrors from "../errors/CoreErrors.js"
import { downloadUrl } from "../files/DownloadUrls.js"
import { CurrentOrganization } from "../middleware/Authentication.js"
import { render } from "@voice-agent-platform/contract/shared/Pagination.js"
import { runPageResponse } from "./RunPageJson.js"
import { runResponse, runSummaryResponse, transcriptResponse } from "./RunResponses.js"

/** Handlers of the conversations group. */
export const ConversationsHandlers = HttpApiBuilder.group(Api, "conversations", (handlers) =>
  Effect.gen(function* () {
    const runs = yield* Runs.Runs
    const signingKey = yield* DownloadLinks.LinkSigningKey
    const signing = Effect.provideService(DownloadLinks.LinkSigningKey, signingKey)
    return handlers
      .handle("create", ({ path, payload }) =>
        Effect.gen(function* () {
          const organization = yield* CurrentOrganization
          const run = yield* runs.createConversation(organization.id, path.agent_id, payload)
          return yield* runResponse(run)
        }).pipe(signing, Effect.mapError(CoreErrors.toHttp))
      )
      .handle("list", ({ path, urlParams }) =>
        Effect.gen(function* () {
          const organization = yield* CurrentOrganization
          const { limit, page, ...filter } = urlParams
          return runPageResponse(
            render(
              yield* runs.list(organization.id, path.agent_id, filter, { page, limit }),
              runSummaryResponse
            )
          )
        }).pipe(Effect.mapError(CoreErrors.toHttp))
      )
      .handle("get", ({ path }) =>
        Effect.gen(function* () {
          const organization = yield* CurrentOrganization
          const run = yield* runs.get(organization.id, path.agent_id, RunId.RunId.make(path.run_id))
          return yield* runResponse(run)
        }).pipe(signing, Effect.mapError(CoreErrors.toHttp))
      )
      .handle("transcript", ({ path, urlParams }) =>
        Effect.gen(function* () {
          const organization = yield* CurrentOrganization
          const transcript = yield* runs.transcript(
            organization.id,
            path.agent_id,
            RunId.RunId.make(path.run_id)
          )
          return yield* transcriptResponse(transcript, urlParams.expires_in)
        }).pipe(signing, Effect.mapError(CoreErrors.toHttp))
      )
      .handle("recording", ({ path, urlParams }) =>
        Effect.gen(function* () {
          const organization = yield* CurrentOrganization
          const recording = yield* runs.recording(
            organization.id,
            path.agent_id,
            RunId.RunId.make(path.run_id)
          )
          const link = yield* downloadUrl(recording.file_key, urlParams.expires_in)
          return { download_url: link.url, content_type: recording.content_type, expires_at: link.expires_at }
        }).pipe(signing, Effect.mapError(CoreErrors.toHttp))
      )
      .handle("delete", ({ path }) =>
        Effect.gen(function* () {
          const organization = yield* CurrentOrganization
          yield* runs.delete(organization.id, path.agent_id, RunId.RunId.make(path.run_id))
        }).pipe(Effect.mapError(CoreErrors.toHttp))
      )
  })
)
