import { CallPlacement, PhoneNumber, RunId, Triggers, OperationSpans } from "@voice-agent-platform/core"
import { Effect } from "effect"
import { Api } from "@voice-agent-platform/contract/Api.js"
import * as CoreErrors from "../errors/CoreErrors.js"
import * as Idempotent from "../idempotency/Idempotent.js"
import { CurrentOrganization } from "../middleware/Authentication.js"
import { CallResponse, type PlaceCallRequest } from "@voice-agent-platform/contract/calls/CallsApi.js"
import { callResponse } from "./CallResponses.js"
import * as CapturedGroups from "../direct/CapturedGroups.js"

/** The body as the core takes it: absent and null optional fields mean the same. */
const callOptions = (payload: typeof PlaceCallRequest.Type) => ({
  phone_number: payload.phone_number,
  ...(payload.initial_context == null ? {} : { initial_context: payload.initial_context }),
  ...(payload.from_phone_number_id == null
    ? {}
    : { from_phone_number_id: PhoneNumber.PhoneNumberId.make(payload.from_phone_number_id) })
})

/** Handlers of the calls group. */
export const CallsHandlers = CapturedGroups.group(Api, "calls", (handlers) =>
  Effect.gen(function* () {
    const calls = yield* CallPlacement.CallPlacement
    const triggers = yield* Triggers.Triggers

    const placeWithAgent = (agent: string, payload: typeof PlaceCallRequest.Type) =>
      Effect.gen(function* () {
        const organization = yield* CurrentOrganization
        const run = yield* calls.place({ organizationId: organization.id, agent, ...callOptions(payload) })
        return callResponse(run)
      }).pipe(Effect.mapError(CoreErrors.toHttp))

    /** A call request under its `Idempotency-Key`, if it has one: a repeat places no second call. */
    const idempotent = <E, R>(
      route: string,
      request: {
        readonly path: Readonly<Record<string, unknown>>
        readonly payload: typeof PlaceCallRequest.Type
        readonly headers: typeof Idempotent.IdempotencyKeyHeader.Type
      },
      handler: Effect.Effect<typeof CallResponse.Type, E, R>
    ) =>
      Idempotent.run(
        {
          headers: request.headers,
          method: "POST",
          route,
          path: request.path,
          body: request.payload,
          success: CallResponse,
          runOf: (answer) => RunId.RunId.make(answer.workflow_run_id)
        },
        handler
      )

    return handlers
      .handle(
        "placeWithAgent",
        OperationSpans.fn("Calls.placeWithAgent")(function* (request) {
          return yield* idempotent(
            "/agents/:agent_id/calls",
            request,
            placeWithAgent(request.path.agent_id, request.payload)
          )
        })
      )
      .handle(
        "placeLegacy",
        OperationSpans.fn("Calls.placeLegacy")(function* (request) {
          return yield* idempotent(
            "/workflow/:workflow_id/calls",
            request,
            placeWithAgent(request.path.workflow_id, request.payload)
          )
        })
      )
      .handle(
        "placeWithTrigger",
        OperationSpans.fn("Calls.placeWithTrigger")(function* (request) {
          return yield* idempotent(
            "/triggers/:trigger_id/calls",
            request,
            Effect.gen(function* () {
              const organization = yield* CurrentOrganization
              const run = yield* triggers.placeCall(
                organization.id,
                request.path.trigger_id,
                callOptions(request.payload)
              )
              return callResponse(run)
            }).pipe(Effect.mapError(CoreErrors.toHttp))
          )
        })
      )
  })
)
