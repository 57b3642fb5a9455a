import type { HttpServerRequest } from "@effect/platform"
import type { DownloadLinks, Transcripts } from "@voice-agent-platform/core"
import { Money, Run, RunSummaryJson } from "@voice-agent-platform/core"
import { Effect } from "effect"
import { downloadUrl } from "../files/DownloadUrls.js"
import type {
  RunListItemResponse,
  RunResponse,
  RunSummaryResponse,
  TranscriptResponse
} from "@voice-agent-platform/contract/conversations/ConversationsApi.js"

/** A run as the list shows it (`RunSummaryJson.listed`: the fields the store writes for the list). */
export const runSummaryResponse = (run: Run.RunSummary): typeof RunSummaryResponse.Type =>
  RunSummaryJson.listed(run)

/** A run as the list of every agent's runs shows it. */
export const runListItemResponse = (run: Run.RunListing): typeof RunListItemResponse.Type => ({
  ...runSummaryResponse(run),
  phone_number: run.phone_number,
  disposition: run.disposition,
  agent_id: run.agent_public_id,
  agent_name: run.agent_name
})

/** A link to one of the run's files, or null while the call is live (nothing is saved yet) or when there is none. */
const fileLink = (run: Run.Run, key: string | null) =>
  key === null || Run.isLive(run.status)
    ? Effect.succeed(null)
    : Effect.map(downloadUrl(key), (link) => link.url)

/** What the run cost: its talk time and its model tokens, together and apart, and the tokens. */
export const costResponse = (run: Run.Run): (typeof RunResponse.Type)["cost"] => {
  const decimal = (amount: number | null) =>
    amount === null ? null : Money.toDecimal(Money.MinorUnits.make(amount))
  return {
    amount: run.cost === null ? null : decimal(run.cost + (run.model_cost ?? 0)),
    currency: run.currency,
    breakdown: { telephony: decimal(run.cost), language_model: decimal(run.model_cost) },
    tokens: { prompt: run.model_prompt_tokens, completion: run.model_completion_tokens }
  }
}

/** A single run, with signed links to its files on the origin the request came to. */
export const runResponse = (
  run: Run.Run
): Effect.Effect<
  typeof RunResponse.Type,
  never,
  DownloadLinks.LinkSigningKey | HttpServerRequest.HttpServerRequest
> =>
  Effect.gen(function* () {
    return {
      ...runSummaryResponse(run),
      name: run.name,
      phone_number: run.phone_number,
      cost: costResponse(run),
      disposition: run.disposition,
      summary: run.summary,
      analysis_status: run.analysis_status,
      analysis_error: run.analysis_error,
      campaign_id: run.campaign_id,
      sms: run.sms,
      logs: run.logs,
      integration_deliveries: run.integration_deliveries,
      files: {
        recording: yield* fileLink(run, run.files.recording),
        transcript: yield* fileLink(run, run.files.transcript)
      }
    }
  })

/** A transcript's turns and a link to the raw file they were merged from. */
export const transcriptResponse = (
  transcript: Transcripts.RunTranscript,
  expiresInSeconds: number
): Effect.Effect<
  typeof TranscriptResponse.Type,
  never,
  DownloadLinks.LinkSigningKey | HttpServerRequest.HttpServerRequest
> =>
  Effect.map(downloadUrl(transcript.file_key, expiresInSeconds), (link) => ({
    workflow_run_id: transcript.run.workflow_run_id,
    turns: transcript.turns,
    download_url: link.url,
    expires_at: link.expires_at
  }))
