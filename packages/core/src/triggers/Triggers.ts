import { Clock, Context, Effect, Layer, Option } from "effect"
import * as SpanAttributes from "../observability/SpanAttributes.js"
import type { AgentNotFound } from "../agents/AgentErrors.js"
import type { AgentRef } from "../agents/AgentIds.js"
import { Agents } from "../agents/Agents.js"
import type { PlaceCallError } from "../calls/CallPlacement.js"
import { CallPlacement } from "../calls/CallPlacement.js"
import type { OrganizationId } from "../organizations/Organization.js"
import type { Page, PageRequest } from "../pagination/Page.js"
import * as E164 from "../phone-numbers/E164.js"
import type { PhoneNumberId } from "../phone-numbers/PhoneNumber.js"
import { base62String, SecureRandom } from "../randomness/SecureRandom.js"
import type { Run } from "../runs/Run.js"
import type { Trigger, TriggerStatus } from "./Trigger.js"
import { parseTriggerId, triggerIdFrom } from "./Trigger.js"
import * as TriggerContext from "./TriggerContext.js"
import { TriggerArchived, TriggerNotFound } from "./TriggerErrors.js"
import { TriggerStore } from "./TriggerStore.js"
import * as OperationSpans from "../observability/OperationSpans.js"

/** A new trigger: the agent it calls with and the context every call starts from. */
export interface CreateTrigger {
  /** The agent: a parsed reference, or its public id or number as the caller wrote it. */
  readonly agent: AgentRef | string
  readonly name: string
  readonly initial_context?: Readonly<Record<string, unknown>>
}

/** A call through a trigger: whom to call, and context to lay over the trigger's. */
export interface TriggerCallRequest {
  readonly phone_number: string
  readonly initial_context?: Readonly<Record<string, unknown>>
  readonly from_phone_number_id?: PhoneNumberId
}

/**
 * Triggers: named entry points that place calls with a fixed agent and a base context. A call through
 * a trigger is an ordinary call (same gates, same run) that records the trigger's id.
 */
export class Triggers extends Context.Tag("@voice-agent-platform/core/Triggers")<
  Triggers,
  {
    /** A new active trigger; the agent must be one of the organization's (404 otherwise). */
    readonly create: (
      organizationId: OrganizationId,
      input: CreateTrigger
    ) => Effect.Effect<Trigger, AgentNotFound>
    readonly list: (
      organizationId: OrganizationId,
      filter: { readonly status?: TriggerStatus },
      page: PageRequest
    ) => Effect.Effect<Page<Trigger>>
    readonly get: (
      organizationId: OrganizationId,
      triggerId: string
    ) => Effect.Effect<Trigger, TriggerNotFound>
    /** Archives the trigger (archiving an archived one changes nothing); it places no calls afterwards. */
    readonly archive: (
      organizationId: OrganizationId,
      triggerId: string
    ) => Effect.Effect<Trigger, TriggerNotFound>
    /**
     * Places a call with the trigger's agent; the request's `initial_context` is laid over the trigger's.
     * The number is checked first (like every call), then the trigger, then the call's own gates.
     */
    readonly placeCall: (
      organizationId: OrganizationId,
      triggerId: string,
      request: TriggerCallRequest
    ) => Effect.Effect<Run, PlaceCallError | TriggerNotFound | TriggerArchived>
  }
>() {}

export const layer = Layer.effect(
  Triggers,
  Effect.gen(function* () {
    const store = yield* TriggerStore
    const agents = yield* Agents
    const calls = yield* CallPlacement
    const random = yield* SecureRandom

    const get = (organizationId: OrganizationId, triggerId: string) =>
      Effect.gen(function* () {
        const id = parseTriggerId(triggerId)
        const found = id === undefined ? Option.none() : yield* store.find(organizationId, id)
        return Option.isSome(found) ? found.value : yield* new TriggerNotFound({ trigger_id: triggerId })
      })

    return {
      create: OperationSpans.fn("Triggers.create")(function* (organizationId, input) {
        const agent = yield* agents.resolve(organizationId, input.agent)
        const body = yield* Effect.provideService(base62String(20), SecureRandom, random)
        const now = new Date(yield* Clock.currentTimeMillis)
        return yield* store.insert({
          trigger_id: triggerIdFrom(body),
          organization_id: organizationId,
          agent_id: agent.id,
          name: input.name,
          initial_context: { ...input.initial_context },
          status: "active",
          created_at: now
        })
      }, SpanAttributes.organization),
      list: OperationSpans.fn("Triggers.list")(
        (organizationId, filter, page) => store.list(organizationId, filter, page),
        SpanAttributes.organization
      ),
      get: OperationSpans.fn("Triggers.get")(get, SpanAttributes.organization),
      archive: OperationSpans.fn("Triggers.archive")(function* (organizationId, triggerId) {
        const trigger = yield* get(organizationId, triggerId)
        const archived = yield* store.archive(organizationId, trigger.trigger_id)
        return Option.getOrElse(archived, () => trigger)
      }, SpanAttributes.organization),
      placeCall: OperationSpans.fn("Triggers.placeCall")(function* (organizationId, triggerId, request) {
        yield* E164.normalize(request.phone_number)
        const trigger = yield* get(organizationId, triggerId)
        if (trigger.status === "archived") {
          return yield* new TriggerArchived({ trigger_id: trigger.trigger_id })
        }
        return yield* calls.place({
          organizationId,
          agent: { _tag: "Number", id: trigger.agent_id },
          phone_number: request.phone_number,
          initial_context: TriggerContext.merge(trigger.initial_context, request.initial_context),
          ...(request.from_phone_number_id === undefined
            ? {}
            : { from_phone_number_id: request.from_phone_number_id }),
          trigger_id: trigger.trigger_id
        })
      }, SpanAttributes.organization)
    }
  })
)
