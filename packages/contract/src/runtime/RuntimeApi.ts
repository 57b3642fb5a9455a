import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import * as Agent from "@voice-agent-platform/core/agents/Agent.js"
import * as CallEnd from "@voice-agent-platform/core/calls/CallEnd.js"
import * as Run from "@voice-agent-platform/core/runs/Run.js"
import * as Transcript from "@voice-agent-platform/core/transcripts/Transcript.js"
import { Schema } from "effect"
import * as BodyPolicy from "../edge/BodyPolicy.js"
import { Conflict, NotFound } from "../errors/ApiErrors.js"
import { RuntimeAuthentication } from "../middleware/RuntimeAuthentication.js"
import { IntId } from "../shared/Ids.js"
import { JsonObject, strict } from "../shared/Json.js"
import { Timestamp } from "../shared/Timestamp.js"
import { ToolTestResult } from "../tools/ToolsApi.js"
import { RuntimeAgentResponse, RuntimeToolCallRequest, toolCallsPerRun } from "./RuntimeToolSchemas.js"

/** The most events one request may carry. */
export const maxEventsPerRequest = 1000

/** The largest recording a runtime may upload: 200 MB (200 MiB); more is 413 as soon as it is crossed. */
export const maxRecordingBytes = 200 * 1024 * 1024

/** The media types a WAV recording goes by. */
export const recordingMediaTypes = ["audio/wav", "audio/x-wav", "audio/wave", "audio/vnd.wave"]

/** One call event as JSON: `CallEvent` from core with ISO timestamps; the recording has its own route. */
export const RuntimeEvent = Schema.Union(
  strict(Schema.Struct({ type: Schema.Literal("started", "ringing") })),
  strict(Schema.Struct({ type: Schema.Literal("answered") })),
  strict(
    Schema.Struct({
      type: Schema.Literal("fragment"),
      role: Transcript.Role,
      text: Schema.String,
      timestamp: Timestamp
    })
  ),
  strict(Schema.Struct({ type: Schema.Literal("gathered"), values: JsonObject })),
  strict(Schema.Struct({ type: Schema.Literal("sms"), to: Schema.String, text: Schema.String })),
  strict(
    Schema.Struct({
      type: Schema.Literal("log"),
      level: Run.RunLogEntry.fields.level,
      message: Schema.String
    })
  ),
  strict(
    Schema.Struct({
      type: Schema.Literal("ended"),
      status: CallEnd.EndStatus,
      duration_seconds: Schema.Number.pipe(Schema.between(0, CallEnd.maxDurationSeconds))
    })
  )
).annotations({ identifier: "RuntimeCallEvent" })

/** One event, or several in the order they happened. */
export const RuntimeEventsRequest = Schema.Union(
  RuntimeEvent,
  Schema.Array(RuntimeEvent).pipe(Schema.minItems(1), Schema.maxItems(maxEventsPerRequest))
).annotations({ identifier: "RuntimeCallEvents" })

/** What became of each event, in order, and the run's status afterwards. */
export const RuntimeEventsResponse = Schema.Struct({
  workflow_run_id: Schema.Int,
  status: Run.RunStatus,
  results: Schema.Array(
    Schema.Struct({
      type: Schema.String,
      outcome: Schema.Literal("applied", "ignored")
    }).annotations({ identifier: "RuntimeEventResult" })
  )
}).annotations({ identifier: "RuntimeEventsResult" })

/** What a voice runtime needs to run one call. */
export const RuntimeCallResponse = Schema.Struct({
  workflow_run_id: Schema.Int,
  workflow_id: Schema.Int,
  status: Run.RunStatus,
  phone_number: Schema.NullOr(Schema.String),
  initial_context: JsonObject,
  gathered_context: JsonObject,
  first_message: Schema.String,
  system_prompt: Schema.String,
  language: Schema.String,
  gathered_fields: Schema.Array(Agent.GatheredField),
  max_call_duration_seconds: Schema.Int,
  created_at: Timestamp
}).annotations({ identifier: "RuntimeCall" })

const runPath = Schema.Struct({ run_id: IntId })

/**
 * Ingestion for out-of-process voice runtimes: they read the call they are to run and report its
 * progress with the same events the built-in simulated runtime uses. On only when `RUNTIME_TOKEN` is set;
 * authenticated with `Authorization: Bearer <RUNTIME_TOKEN>`, never with an organization's key.
 */
export class RuntimeApi extends HttpApiGroup.make("runtime")
  .add(
    HttpApiEndpoint.get("getCall", "/runs/:run_id")
      .setPath(runPath)
      .addSuccess(RuntimeCallResponse)
      .annotateContext(
        OpenApi.annotations({
          summary: "Read a call to run",
          description:
            "The run's number, context and status with the agent's first message and system prompt rendered from `initial_context`, the fields to gather and the longest the call may last."
        })
      )
  )
  .add(
    HttpApiEndpoint.post("reportEvents", "/runs/:run_id/events")
      .setPath(runPath)
      .setPayload(RuntimeEventsRequest)
      .addSuccess(RuntimeEventsResponse)
      .addError(Conflict)
      .annotateContext(
        OpenApi.annotations({
          summary: "Report call events",
          description:
            "One event or an array in the order they happened, applied all or nothing: `started`/`ringing`, `answered`, `fragment`, `gathered`, `sms`, `log`, `ended`. A repeated or out-of-order status is `ignored`; any event after the call ended is 409."
        })
      )
  )
  .add(
    HttpApiEndpoint.put("uploadRecording", "/runs/:run_id/recording")
      .setPath(runPath)
      .setPayload(HttpApiSchema.Uint8Array({ contentType: "audio/wav" }))
      .annotate(BodyPolicy.AcceptedMediaTypes, recordingMediaTypes)
      .annotate(BodyPolicy.MaxBodyBytes, maxRecordingBytes)
      .addSuccess(RuntimeEventsResponse)
      .addError(Conflict)
      .annotateContext(
        OpenApi.annotations({
          summary: "Upload the call's recording",
          description:
            "The raw PCM WAV file as the body (`Content-Type: audio/wav`, `audio/x-wav`, `audio/wave` or `audio/vnd.wave`, else 415; at most 200 MB, else 413), streamed; it is the call's `recording` event. Upload it before reporting `ended`."
        })
      )
  )
  .add(
    HttpApiEndpoint.get("getAgent", "/runs/:run_id/agent")
      .setPath(runPath)
      .addSuccess(RuntimeAgentResponse)
      .annotateContext(
        OpenApi.annotations({
          summary: "Read the agent version of a call",
          description:
            "The agent version the run was placed with (a later change of the agent does not change it): prompt and first message with `initial_context` filled, the fields to gather, its active tools as `GET /api/v1/tools` shows them (no credential value, secret header values read `****`, an integration's `api_key` null) and its transfer numbers (E.164)."
        })
      )
  )
  .add(
    HttpApiEndpoint.post("callTool", "/runs/:run_id/tool-calls")
      .setPath(runPath)
      .setPayload(RuntimeToolCallRequest)
      .addSuccess(ToolTestResult.annotations({ identifier: "RuntimeToolCallResult" }))
      .addError(Conflict)
      .annotateContext(
        OpenApi.annotations({
          summary: "Call a tool during a call",
          description: `Runs one of the tools of the run's agent version with the model's \`arguments\`, exactly as \`POST /api/v1/tools/{tool_uuid}/test\` does (same checks, guarded outbound client, deadline and response cap), with the run's \`initial_context\` and the version's transfer numbers. The answer is the executor's result: for a transfer \`response\` is \`{action: "transfer", destination_number}\`, for an end-call \`{action: "end_call", message}\`; a failed call is a 200 with \`ok: false\`. Each call is added to the run's \`logs\` (arguments without secrets, response cut to 4 KiB, duration, outcome) and erased with the run. 404 for a tool that is not one of the version's (another agent's or organization's) or an unknown run; 409 for an archived tool, a run that has ended, or a run that has made ${toolCallsPerRun} tool calls; 422 for an integration tool when no provider adapter is installed.`
        })
      )
  )
  // every call of the runtime names a run that may not exist
  .addError(NotFound)
  .middleware(RuntimeAuthentication)
  .prefix("/runtime/v1") {}
