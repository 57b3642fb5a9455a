import type { HttpServerRequest } from "@effect/platform"
import type { CallEvents } from "@voice-agent-platform/core"
import { RunId, RuntimeCalls, RuntimeTools, OperationSpans } from "@voice-agent-platform/core"
import { Effect, Stream } from "effect"
import { Api } from "@voice-agent-platform/contract/Api.js"
import { ValidationError } from "@voice-agent-platform/contract/errors/ApiErrors.js"
import * as CoreErrors from "../errors/CoreErrors.js"
import type { RuntimeEventsRequest } from "@voice-agent-platform/contract/runtime/RuntimeApi.js"
import * as RuntimeResponses from "./RuntimeResponses.js"
import { agentResponse } from "@voice-agent-platform/contract/runtime/RuntimeToolSchemas.js"
import * as CapturedGroups from "../direct/CapturedGroups.js"

/**
 * Reads the raw body as a stream. The edge (`EdgeRequest`) has already refused another media type (415)
 * and stops the stream as soon as it outgrows `maxRecordingBytes` (413), so a runaway upload is never
 * buffered whole.
 */
const readRecording = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.gen(function* () {
    const chunks: Array<Uint8Array> = []
    let size = 0
    yield* Stream.runForEach(request.stream, (chunk) => {
      size += chunk.length
      chunks.push(chunk)
      return Effect.void
    }).pipe(
      Effect.catchTag("RequestError", (error) =>
        Effect.fail(
          new ValidationError({
            detail: [
              { loc: ["body"], msg: `The body could not be read: ${error.message}`, type: "value_error.body" }
            ]
          })
        )
      )
    )
    const bytes = new Uint8Array(size)
    let offset = 0
    for (const chunk of chunks) {
      bytes.set(chunk, offset)
      offset += chunk.length
    }
    return bytes
  })

/** A request's events as core call events, in order. */
const toCallEvents = (payload: typeof RuntimeEventsRequest.Type): ReadonlyArray<CallEvents.CallEvent> =>
  Array.isArray(payload) ? payload : [payload as CallEvents.CallEvent]

/** Handlers of the runtime ingestion group. */
export const RuntimeHandlers = CapturedGroups.group(Api, "runtime", (handlers) =>
  Effect.gen(function* () {
    const calls = yield* RuntimeCalls.RuntimeCalls
    const tools = yield* RuntimeTools.RuntimeTools
    return handlers
      .handle(
        "getCall",
        OperationSpans.fn("Runtime.getCall")(function* ({ path }) {
          return RuntimeResponses.callResponse(yield* calls.find(RunId.RunId.make(path.run_id)))
        }, Effect.mapError(CoreErrors.toHttp))
      )
      .handle(
        "reportEvents",
        OperationSpans.fn("Runtime.reportEvents")(function* ({ path, payload }) {
          const events = toCallEvents(payload)
          const outcomes = yield* calls.report(RunId.RunId.make(path.run_id), events)
          return RuntimeResponses.eventsResponse(path.run_id, events, outcomes)
        }, Effect.mapError(CoreErrors.toHttp))
      )
      .handle(
        "getAgent",
        OperationSpans.fn("Runtime.getAgent")(function* ({ path }) {
          return agentResponse(yield* tools.agentOf(RunId.RunId.make(path.run_id)))
        }, Effect.mapError(CoreErrors.toHttp))
      )
      .handle(
        "callTool",
        OperationSpans.fn("Runtime.callTool")(function* ({ path, payload }) {
          return yield* tools.call(RunId.RunId.make(path.run_id), payload.tool_uuid, payload.arguments ?? {})
        }, Effect.mapError(CoreErrors.toHttp))
      )
      .handleRaw(
        "uploadRecording",
        OperationSpans.fn("Runtime.uploadRecording")(function* ({ path, request }) {
          const runId = RunId.RunId.make(path.run_id)
          // An unknown run is 404 before a byte of the body is read.
          yield* Effect.mapError(calls.find(runId), CoreErrors.toHttp)
          const bytes = yield* readRecording(request)
          const event: CallEvents.CallEvent = { type: "recording", bytes }
          const outcomes = yield* Effect.mapError(calls.report(runId, [event]), CoreErrors.toHttp)
          return RuntimeResponses.eventsResponse(path.run_id, [event], outcomes)
        })
      )
  })
)
