import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import {
  Conflict,
  Forbidden,
  NotFound,
  OutsideCallingHours,
  ServiceUnavailable,
  TooManyRequests
} from "../errors/ApiErrors.js"
import * as Idempotent from "../idempotency/IdempotencyHeader.js"
import { Authentication } from "../middleware/Authentication.js"
import { AgentIdParam } from "../shared/Ids.js"
import { JsonObject, strict } from "../shared/Json.js"
import { Timestamp } from "../shared/Timestamp.js"

/** The body of every call-placing endpoint: whom to call, what the agent knows, and from which number. */
export const PlaceCallRequest = strict(
  Schema.Struct({
    phone_number: Schema.String.annotations({
      description:
        "The number to call, in international form (`+48 500 100 200`); normalised to E.164. Invalid numbers are a 422."
    }),
    initial_context: Schema.optionalWith(Schema.NullOr(JsonObject), { exact: true }).annotations({
      description:
        "Variables the agent sees as `{{initial_context.<key>}}`; `phone_number` is always set to the called number."
    }),
    from_phone_number_id: Schema.optionalWith(Schema.NullOr(Schema.Int.pipe(Schema.positive())), {
      exact: true
    }).annotations({ description: "One of the organization's active numbers to call from (404 otherwise)" })
  }).annotations({ identifier: "PlaceCallRequest" })
)

/** An accepted call: a queued run that holds one of the organization's outbound channels until it ends. */
export const CallResponse = Schema.Struct({
  workflow_run_id: Schema.Int,
  workflow_id: Schema.Int.annotations({ description: "The agent's number" }),
  status: Schema.Literal("queued"),
  phone_number: Schema.String.annotations({ description: "The called number, E.164" }),
  created_at: Timestamp
}).annotations({ identifier: "PlacedCall" })

const gates =
  "Refusals, in this order: 403 when the number is on the Do not call list (`detail` starts with `do_not_call`); 409 outside 08:00-21:00 in every time zone the number may ring in, with `Retry-After` and `detail.retry_at`; 429 when every outbound channel is busy, with `Retry-After`. 409 `{detail: string}` also answers an archived agent or trigger; 503 when the voice runtime does not take the call. An `Idempotency-Key` makes retries safe: a repeat places no second call."

const retryAfter = (description: string) => ({
  "Retry-After": { description, schema: { type: "integer", minimum: 1 } }
})

/** The generated document names one description per status; these say what each refusal really is. */
const documentRefusals = (operation: Record<string, any>): Record<string, any> => {
  const responses = operation.responses as Record<string, Record<string, unknown>>
  responses["409"] = {
    ...responses["409"],
    description:
      'Outside 08:00-21:00 in the recipient\'s local time: `{detail: {code: "outside_calling_hours", message, retry_at}}` with `Retry-After`; or an archived agent or trigger: `{detail: string}`',
    headers: retryAfter("Seconds until `detail.retry_at`, rounded up (calling-hours refusals only)")
  }
  responses["429"] = {
    ...responses["429"],
    headers: retryAfter("Seconds until an outbound channel is expected to free (1..300)")
  }
  return operation
}

/** Every call-placing endpoint takes the same body and answers the same run; its refusals are the group's. */
const callEndpoint = <const Name extends string>(name: Name, path: HttpApiEndpoint.PathSegment) =>
  HttpApiEndpoint.post(name, path)
    .setPayload(PlaceCallRequest)
    .setHeaders(Idempotent.IdempotencyKeyHeader)
    .addSuccess(CallResponse)
    .annotate(OpenApi.Transform, (operation) => Idempotent.document(documentRefusals(operation)))

/** Outbound calls: with an agent, through a trigger, and at the legacy address. */
export class CallsApi extends HttpApiGroup.make("calls")
  .add(
    callEndpoint("placeWithAgent", "/agents/:agent_id/calls")
      .setPath(Schema.Struct({ agent_id: AgentIdParam }))
      .annotateContext(
        OpenApi.annotations({
          summary: "Place a call with an agent",
          description: `Places an outbound call and answers the queued run. \`phone_number\` and \`initial_context\` are sibling fields. ${gates}`
        })
      )
  )
  .add(
    callEndpoint("placeWithTrigger", "/triggers/:trigger_id/calls")
      .setPath(Schema.Struct({ trigger_id: Schema.String.annotations({ description: "trg_..." }) }))
      .annotateContext(
        OpenApi.annotations({
          summary: "Place a call through a trigger",
          description: `Places an outbound call with the trigger's agent. The request's \`initial_context\` is laid over the trigger's (a key the request names wins). An archived trigger places no calls (409). ${gates}`
        })
      )
  )
  .add(
    callEndpoint("placeLegacy", "/workflow/:workflow_id/calls")
      .setPath(
        Schema.Struct({
          workflow_id: Schema.String.annotations({
            description: "The agent's number (`workflow_id`); its public id is accepted too"
          })
        })
      )
      .annotateContext(
        OpenApi.annotations({
          summary: "Place a call (legacy address)",
          description: `The earlier address of \`POST /agents/{agent_id}/calls\`, kept working unchanged; new integrations use that one. ${gates}`
        })
      )
      .annotate(OpenApi.Deprecated, true)
  )
  // every way of placing a call passes the same gates, so every endpoint can answer every refusal
  .addError(Forbidden)
  .addError(NotFound)
  .addError(Conflict)
  .addError(OutsideCallingHours)
  .addError(TooManyRequests)
  .addError(ServiceUnavailable)
  .middleware(Authentication)
  .prefix("/api/v1") {}
