import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import * as Money from "@voice-agent-platform/core/money/Money.js"
import * as E164 from "@voice-agent-platform/core/phone-numbers/E164.js"
import * as Run from "@voice-agent-platform/core/runs/Run.js"
import * as ConversationMode from "@voice-agent-platform/core/runs/ConversationMode.js"
import * as Recording from "@voice-agent-platform/core/runs/Recording.js"
import * as Transcript from "@voice-agent-platform/core/transcripts/Transcript.js"
import { Either, Schema } from "effect"
import { Conflict, NotFound, TooManyRequests } from "../errors/ApiErrors.js"
import { Authentication } from "../middleware/Authentication.js"
import { AgentIdParam, documentedAsInteger, IntId } from "../shared/Ids.js"
import { JsonObject, strict } from "../shared/Json.js"
import { PageOf, PageParams } from "../shared/Pagination.js"
import { InstantParam, Timestamp } from "../shared/Timestamp.js"

/** The fields every run shows, in the list and alone. */
const runSummaryFields = {
  workflow_run_id: Schema.Int,
  workflow_id: Schema.Int,
  ...Run.Run.pick("mode", "status").fields,
  initial_context: JsonObject,
  gathered_context: JsonObject,
  duration_seconds: Schema.NullOr(Schema.Int),
  created_at: Timestamp,
  ended_at: Schema.NullOr(Timestamp)
}

/** A run as the list shows it: no links, logs or SMS. */
export const RunSummaryResponse = Schema.Struct(runSummaryFields).annotations({ identifier: "RunSummary" })

/**
 * A run as the list of every agent's runs shows it: the summary, the called number and disposition, and
 * its agent (public id and current name).
 */
export const RunListItemResponse = Schema.Struct({
  ...runSummaryFields,
  ...Run.Run.pick("phone_number", "disposition").fields,
  agent_id: Schema.String.annotations({ description: "The agent's public id (agent_...)" }),
  agent_name: Schema.String.annotations({ description: "The agent's name, as it is now" })
}).annotations({ identifier: "RunListItem" })

/** A single run: everything the list shows, plus cost, SMS, logs, integration deliveries and file links. */
export const RunResponse = Schema.Struct({
  ...runSummaryFields,
  ...Run.Run.pick("name", "phone_number").fields,
  cost: Schema.Struct({
    amount: Schema.NullOr(Schema.Number).annotations({
      description:
        "What the run cost in all (its talk time and its language-model tokens), 2 decimals; null until the run is billed when it ends"
    }),
    currency: Money.Currency,
    breakdown: Schema.Struct({
      telephony: Schema.NullOr(Schema.Number).annotations({
        description: "The talk time at the call rate (a chat is not charged for time); null until billed"
      }),
      language_model: Schema.NullOr(Schema.Number).annotations({
        description:
          "The language-model tokens of the conversation (charged when it ended) and of its analysis (added when it finished); null until billed"
      })
    }),
    tokens: Schema.Struct({
      prompt: Schema.Int.annotations({ description: "Prompt tokens of the run's model requests so far" }),
      completion: Schema.Int.annotations({
        description: "Completion tokens of the run's model requests so far"
      })
    })
  }).annotations({ identifier: "RunCost" }),
  ...Run.Run.pick("disposition", "campaign_id").fields,
  summary: Schema.NullOr(Schema.String).annotations({
    description:
      "What happened, in at most 500 characters, written by the analysis after the run; null until then"
  }),
  analysis_status: Schema.NullOr(Run.AnalysisStatus).annotations({
    description:
      "The analysis after the run: `pending`, then `completed` or `failed`; `skipped` when the run ended without a conversation; null while it has not ended"
  }),
  analysis_error: Schema.NullOr(Schema.String).annotations({ description: "Why the analysis failed" }),
  // the run's lists as the core keeps them, their instants as ISO text
  sms: Schema.Array(Schema.Struct({ ...Run.SmsMessage.fields, sent_at: Timestamp })),
  logs: Schema.Array(Schema.Struct({ ...Run.RunLogEntry.fields, timestamp: Timestamp })),
  integration_deliveries: Schema.Array(
    Schema.Struct({ ...Run.IntegrationDelivery.fields, delivered_at: Timestamp })
  ),
  files: Run.RunFiles.annotations({
    description:
      "Signed download links (valid for an hour), or null while the call is live and when there is no such file"
  })
}).annotations({ identifier: "Run" })

/** `GET .../transcript`: the turns, and a link to the raw file they were merged from. */
export const TranscriptResponse = Schema.Struct({
  workflow_run_id: Schema.Int,
  turns: Schema.Array(
    Schema.Struct({ role: Transcript.Role, text: Schema.String, start: Timestamp, end: Timestamp })
  ),
  download_url: Schema.String,
  expires_at: Timestamp
}).annotations({ identifier: "RunTranscript" })

/** `GET .../recording`: a link to the WAV file. */
export const RecordingResponse = Schema.Struct({
  download_url: Schema.String,
  content_type: Schema.Literal(Recording.recordingContentType),
  expires_at: Timestamp
}).annotations({ identifier: "RunRecording" })

/** A browser voice session's socket: where to open it and the capability that opens it. */
export const BrowserVoiceSession = Schema.Struct({
  url: Schema.String.annotations({
    description:
      "The session's WebSocket (`ws`/`wss` on the API's public origin, `…/voice/sessions/{run}/{token}`): the browser sends its microphone as binary frames of 16 kHz mono PCM16 (little-endian) and receives the agent's audio the same way, with JSON text messages (`mark`, `clear`, `transcript`, `end`; see docs/voice.md)"
  }),
  token: Schema.String.annotations({ description: "The capability in the URL's path, for this run only" }),
  expires_at: Timestamp.annotations({ description: "Until when the socket can be opened (2 minutes)" })
}).annotations({ identifier: "BrowserVoiceSession" })

/** `POST /agents/{agent_id}/conversations`: the run, and for a browser voice session its socket. */
export const CreatedConversationResponse = Schema.Struct({
  ...RunResponse.fields,
  session: Schema.optionalWith(BrowserVoiceSession, { exact: true }).annotations({
    description: "For `webrtc` and `smallwebrtc`: the voice session's socket; absent for a chat"
  })
}).annotations({ identifier: "CreatedConversation" })

/** `POST /agents/{agent_id}/conversations`. */
export const CreateConversationRequest = strict(
  Schema.Struct({
    mode: ConversationMode.ConversationMode,
    initial_context: Schema.optionalWith(JsonObject, { exact: true }),
    name: Schema.optionalWith(Schema.NullOr(Schema.String.pipe(Schema.maxLength(255))), { exact: true })
  }).annotations({ identifier: "CreateConversationRequest" })
)

const invalidNumber = "phone_number must be a valid phone number in international format, e.g. +48500000486"

/** A number in a query, in any valid international spelling (`%2B48 500-100-200`), read as E.164. */
export const PhoneNumberFilter = Schema.String.pipe(
  Schema.filter((input) => Either.isRight(E164.normalize(input)), { message: () => invalidNumber }),
  Schema.compose(
    Schema.transform(Schema.String, E164.E164, {
      strict: true,
      decode: (input) => Either.getOrThrow(E164.normalize(input)),
      encode: (number) => number
    })
  )
).annotations({
  jsonSchema: {
    type: "string",
    description:
      "Only calls to this number, in any valid international spelling, URL-encoded (`%2B48500100200`); matched as E.164"
  }
})

/** The filters both runs lists take, each optional; every one given must match. */
export const RunFilterParams = {
  status: Schema.optionalWith(Run.RunStatus, { exact: true }),
  created_after: Schema.optionalWith(InstantParam, { exact: true }).annotations({
    description: "Only runs created at or after this instant (ISO 8601 with a timezone)"
  }),
  created_before: Schema.optionalWith(InstantParam, { exact: true }).annotations({
    description: "Only runs created before this instant (ISO 8601 with a timezone)"
  }),
  phone_number: Schema.optionalWith(PhoneNumberFilter, { exact: true }),
  disposition: Schema.optionalWith(
    Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100)).annotations({
      title: "Disposition",
      description: "Only runs the analysis gave this disposition code (1..100 characters)"
    }),
    { exact: true }
  ),
  mode: Schema.optionalWith(
    Run.RunMode.annotations({ description: "Only runs of this mode: phone, webrtc, smallwebrtc or chat" }),
    { exact: true }
  )
}

/** `GET /agents/{agent_id}/conversations`: a page, and optional filters. */
export const ListRunsQuery = Schema.Struct({ ...PageParams, ...RunFilterParams })

/** How long a download link lives: 60..86400 seconds, default 3600. */
export const LinkQuery = Schema.Struct({
  expires_in: Schema.optionalWith(
    Schema.NumberFromString.pipe(Schema.int(), Schema.between(60, 86_400)).annotations(
      documentedAsInteger({ minimum: 60, maximum: 86_400, default: 3600 })
    ),
    {
      default: () => 3600,
      exact: true
    }
  ).annotations({ description: "Link lifetime in seconds, 60..86400 (default 3600)" })
})

const agentPath = Schema.Struct({ agent_id: AgentIdParam })

const runPath = Schema.Struct({
  agent_id: AgentIdParam,
  run_id: IntId.annotations({ description: "The run's `workflow_run_id`" })
})

const fileUnavailable =
  "404 when the run is not this agent's, while the call is in progress (the file is saved when it ends), when the run has no such file, and after a retention policy deleted it; `detail` says which."

/** Runs (conversations): records, lists, single runs, transcripts, recordings, deletion. */
export class ConversationsApi extends HttpApiGroup.make("conversations")
  .add(
    HttpApiEndpoint.post("create", "/agents/:agent_id/conversations")
      .setPath(agentPath)
      .setPayload(CreateConversationRequest)
      .addSuccess(CreatedConversationResponse)
      .addError(Conflict)
      .addError(TooManyRequests)
      .annotateContext(
        OpenApi.annotations({
          summary: "Create a conversation",
          description:
            "Creates a run record for a browser session (`webrtc`, `smallwebrtc`) or a chat (`chat`) with status `initialized`. Places no call. A browser session's answer also has `session`: the WebSocket that runs the voice conversation (the run goes `in_progress` when it opens and ends when it closes or the agent ends it). 409 when the agent is archived. 429 (with `Retry-After`) when the organization already has its limit of live browser sessions (10: created within the last 120 s and not yet opened, or in progress)."
        })
      )
  )
  .add(
    HttpApiEndpoint.get("list", "/agents/:agent_id/conversations")
      .setPath(agentPath)
      .setUrlParams(ListRunsQuery)
      .addSuccess(PageOf(RunSummaryResponse, "RunPage"))
      .annotateContext(
        OpenApi.annotations({
          summary: "List runs",
          description:
            "The agent's runs (calls, browser sessions, chats), newest first, each with `initial_context`, `gathered_context` and `duration_seconds`; filter by `status`, creation time (`created_after` inclusive, `created_before` exclusive), `phone_number` (any international spelling), `disposition` and `mode`. Links, logs and SMS come only with a single run. `GET /runs` lists every agent's runs with the same filters."
        })
      )
  )
  .add(
    HttpApiEndpoint.get("get", "/agents/:agent_id/conversations/:run_id")
      .setPath(runPath)
      .addSuccess(RunResponse)
      .annotateContext(
        OpenApi.annotations({
          summary: "Get a run",
          description:
            "One run with gathered data, duration, cost, SMS, logs, integration deliveries and signed download links of its recording and transcript (null while the call is live or when there is none)."
        })
      )
  )
  .add(
    HttpApiEndpoint.get("transcript", "/agents/:agent_id/conversations/:run_id/transcript")
      .setPath(runPath)
      .setUrlParams(LinkQuery)
      .addSuccess(TranscriptResponse)
      .annotateContext(
        OpenApi.annotations({
          summary: "Get a run's transcript",
          description: `The turns of the conversation: consecutive fragments of one speaker (\`user\` the caller, \`assistant\` the agent) joined into one turn, \`start\` and \`end\` the timestamps of its first and last fragment. \`download_url\` links the raw file, one fragment per line: \`[<timestamp>] <role>: <text>\`. ${fileUnavailable}`
        })
      )
  )
  .add(
    HttpApiEndpoint.get("recording", "/agents/:agent_id/conversations/:run_id/recording")
      .setPath(runPath)
      .setUrlParams(LinkQuery)
      .addSuccess(RecordingResponse)
      .annotateContext(
        OpenApi.annotations({
          summary: "Get a run's recording",
          description: `A signed link to the call's WAV recording, valid for \`expires_in\` seconds (60..86400, default 3600). ${fileUnavailable}`
        })
      )
  )
  .add(
    HttpApiEndpoint.del("delete", "/agents/:agent_id/conversations/:run_id")
      .setPath(runPath)
      .addSuccess(HttpApiSchema.NoContent)
      .addError(Conflict)
      .annotateContext(
        OpenApi.annotations({
          summary: "Delete a call",
          description:
            "Irreversible. The recording and transcript leave storage and the run loses its `initial_context` (with the phone number), `gathered_context`, logs, SMS and integration delivery records; afterwards every run endpoint answers 404 and old download links stop working. Webhook deliveries about the call are deleted, and the answer kept for the `Idempotency-Key` that placed it is erased: repeating that request answers 404 and places nothing. Duration and cost stay in the organization's billing records. 409 while the call is `queued`, `ringing` or `in_progress`."
        })
      )
  )
  // every endpoint names an agent that may not exist
  .addError(NotFound)
  .middleware(Authentication)
  .prefix("/api/v1") {}
