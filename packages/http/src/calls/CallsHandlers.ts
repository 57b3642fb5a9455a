import { HttpApiBuilder } from "@effect/platform"
import { CallPlacement, PhoneNumber, Triggers } from "@voice-agent-platform/core"
import { Effect } from "effect"
import { Api } from "../Api.js"
import * as CoreErrors from "../errors/CoreErrors.js"
import { CurrentOrganization } from "../middleware/Authentication.js"
import type { PlaceCallRequest } from "./CallsApi.js"
import { callResponse } from "./CallResponses.js"

/** The body as the core takes it: absent and null optional fields mean the same. */
const callOptions = (payload: typeof PlaceCallRequest.Type) => ({
  phone_number: payload.phone_number,
  ...(payload.initial_context == null ? {} : { initial_context: payload.initial_context }),
  ...(payload.from_phone_number_id == null
    ? {}
    : { from_phone_number_id: PhoneNumber.PhoneNumberId.make(payload.from_phone_number_id) })
})

/** Handlers of the calls group. */
export const CallsHandlers = HttpApiBuilder.group(Api, "calls", (handlers) =>
  Effect.gen(function* () {
    const calls = yield* CallPlacement.CallPlacement
    const triggers = yield* Triggers.Triggers

    const placeWithAgent = (agent: string, payload: typeof PlaceCallRequest.Type) =>
      Effect.gen(function* () {
        const organization = yield* CurrentOrganization
        const run = yield* calls.place({ organizationId: organization.id, agent, ...callOptions(payload) })
        return callResponse(run)
      }).pipe(Effect.mapError(CoreErrors.toHttp))

    return handlers
      .handle("placeWithAgent", ({ path, payload }) => placeWithAgent(path.agent_id, payload))
      .handle("placeLegacy", ({ path, payload }) => placeWithAgent(path.workflow_id, payload))
      .handle("placeWithTrigger", ({ path, payload }) =>
        Effect.gen(function* () {
          const organization = yield* CurrentOrganization
          const run = yield* triggers.placeCall(organization.id, path.trigger_id, callOptions(payload))
          return callResponse(run)
        }).pipe(Effect.mapError(CoreErrors.toHttp))
      )
  })
)
