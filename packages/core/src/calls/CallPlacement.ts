import * as PhoneNumberErrors from "../phone-numbers/PhoneNumberErrors.js"
import { Clock, Context, Effect, Exit, identity, Layer, Option } from "effect"
import * as OperationalEvents from "../observability/OperationalEvents.js"
import * as SpanAttributes from "../observability/SpanAttributes.js"
import { AgentArchived, AgentNotFound } from "../agents/AgentErrors.js"
import type { AgentRef } from "../agents/AgentIds.js"
import { Agents } from "../agents/Agents.js"
import { AgentStore } from "../agents/AgentStore.js"
import { DoNotCallStore } from "../do-not-call/DoNotCallStore.js"
import type { OrganizationId } from "../organizations/Organization.js"
import { OrganizationNotFound } from "../organizations/OrganizationErrors.js"
import { OrganizationStore } from "../organizations/OrganizationStore.js"
import * as E164 from "../phone-numbers/E164.js"
import * as ConversationLimits from "../conversation/ConversationLimits.js"
import * as InitialContextTemplate from "../templates/InitialContextTemplate.js"
import type { PhoneNumberId } from "../phone-numbers/PhoneNumber.js"
import { PhoneNumberNotFound } from "../phone-numbers/PhoneNumberErrors.js"
import { PhoneNumberStore } from "../phone-numbers/PhoneNumberStore.js"
import { uuidV4, SecureRandom } from "../randomness/SecureRandom.js"
import type { Run } from "../runs/Run.js"
import { newRun } from "../runs/NewRun.js"
import { RunStore } from "../runs/RunStore.js"
import { ChannelsBusy, DoNotCallListed, NoCallerId, OutsideCallingHours } from "./CallErrors.js"
import * as CallGates from "./CallGates.js"
import { CallEvents } from "./CallEvents.js"
import { ChannelStore } from "./ChannelStore.js"
import { Telephony } from "./Telephony.js"
import { TelephonyUnavailable } from "./CallErrors.js"
import * as OperationSpans from "../observability/OperationSpans.js"

/** A request to call someone with an agent. */
export interface PlaceCallRequest {
  readonly organizationId: OrganizationId
  /** The agent: a parsed reference, or the raw `{agent_id}` path segment. */
  readonly agent: AgentRef | string
  readonly phone_number: string
  /** Variables the agent sees as `{{initial_context.<key>}}`. */
  readonly initial_context?: Readonly<Record<string, unknown>>
  /** One of the organization's numbers to call from. */
  readonly from_phone_number_id?: PhoneNumberId
  readonly trigger_id?: string
  readonly campaign_id?: number
}

export type PlaceCallError =
  | PhoneNumberErrors.InvalidPhoneNumber
  | AgentNotFound
  | AgentArchived
  | PhoneNumberNotFound
  | DoNotCallListed
  | OutsideCallingHours
  | ChannelsBusy
  | TelephonyUnavailable
  | OrganizationNotFound
  | NoCallerId

/**
 * Places outbound calls. The gates run in the contract's order (`CallGates`), a permanent refusal before
 * a retryable one: Do not call (403), calling hours (409), outbound channels (429).
 */
export class CallPlacement extends Context.Tag("@voice-agent-platform/core/CallPlacement")<
  CallPlacement,
  {
    /** Accepts a call: the answer is the queued run, whose channel is held until the call ends. */
    readonly place: (request: PlaceCallRequest) => Effect.Effect<Run, PlaceCallError>
  }
>() {}

export const layer = Layer.effect(
  CallPlacement,
  Effect.gen(function* () {
    const agents = yield* Agents
    const agentStore = yield* AgentStore
    const organizations = yield* OrganizationStore
    const doNotCall = yield* DoNotCallStore
    const numbers = yield* PhoneNumberStore
    const channels = yield* ChannelStore
    const runs = yield* RunStore
    const telephony = yield* Telephony
    const events = yield* CallEvents
    const random = yield* SecureRandom

    const resolveAgent = (organizationId: OrganizationId, ref: AgentRef | string) =>
      Effect.filterOrFail(
        agents.resolve(organizationId, ref),
        (agent) => agent.status !== "archived",
        (agent) => new AgentArchived({ agent_id: agent.public_id })
      )

    const callerId = (organizationId: OrganizationId, id: PhoneNumberId | undefined) =>
      Effect.gen(function* () {
        if (id === undefined) return null
        const number = yield* numbers.find(id)
        if (Option.isNone(number) || !CallGates.usableCallerId(number.value, organizationId)) {
          return yield* new PhoneNumberNotFound({ phone_number_id: id })
        }
        return number.value.number
      })

    /** The organization's first active number (the one it has held longest), if any: one store read. */
    const firstActiveNumber = (organizationId: OrganizationId) =>
      Effect.map(numbers.oldestActive(organizationId), (n) => (Option.isSome(n) ? n.value.number : null))

    /** The caller id of a runtime that needs one: the chosen number, the organization's, the default. */
    const requiredCallerId = (organizationId: OrganizationId, chosen: string | null) =>
      Effect.gen(function* () {
        const rule = telephony.callerId
        if (rule === undefined || chosen !== null) return chosen
        const own = yield* firstActiveNumber(organizationId)
        if (own !== null) return own
        if (rule.fallback !== null) return rule.fallback
        return yield* new NoCallerId()
      })

    const place = (request: PlaceCallRequest) =>
      Effect.gen(function* () {
        const now = new Date(yield* Clock.currentTimeMillis)
        const phoneNumber = yield* E164.normalize(request.phone_number)
        const agent = yield* resolveAgent(request.organizationId, request.agent)
        const chosenNumber = yield* callerId(request.organizationId, request.from_phone_number_id)

        const listed = Option.isSome(yield* doNotCall.find(request.organizationId, phoneNumber))
        const gate = CallGates.beforeChannel(phoneNumber, listed, now)
        if (gate._tag === "DoNotCall") {
          return yield* new DoNotCallListed({ phone_number: phoneNumber })
        }
        if (gate._tag === "OutsideCallingHours") {
          return yield* new OutsideCallingHours({
            phone_number: phoneNumber,
            retry_at: gate.retryAt,
            retry_after_seconds: gate.retryAfterSeconds,
            time_zones: gate.zones
          })
        }

        // after the gates, before a run exists: a call with nothing to call from is refused whole
        const fromNumber = yield* requiredCallerId(request.organizationId, chosenNumber)

        const organization = yield* organizations.find(request.organizationId)
        if (Option.isNone(organization)) {
          return yield* new OrganizationNotFound({ organization_id: request.organizationId })
        }
        const definition = yield* agentStore.findDefinition(
          request.organizationId,
          agent.current_definition_id
        )
        if (Option.isNone(definition)) {
          return yield* Effect.dieMessage(`agent ${agent.id} has no current definition`)
        }

        const reservationId = yield* Effect.provideService(uuidV4, SecureRandom, random)
        const release = channels.release(request.organizationId, reservationId)
        const initialContext = { ...request.initial_context, phone_number: phoneNumber }

        // From the reservation to the hand-off nothing may be lost: the region is uninterruptible except
        // the hand-off itself (unless the runtime shields it: `Telephony.shieldedHandOff`), and every way
        // out of it (failure, defect, interruption) gives the channel back and leaves no queued run behind.
        return yield* Effect.uninterruptibleMask((restore) =>
          Effect.gen(function* () {
            const decision = yield* channels.reserve(
              CallGates.channelHold(request.organizationId, reservationId, agent, now),
              organization.value.outbound_channels,
              now
            )
            if (decision._tag === "Busy") {
              return yield* new ChannelsBusy({
                outbound_channels: organization.value.outbound_channels,
                retry_after_seconds: decision.retryAfterSeconds
              })
            }
            const run = yield* runs
              .insert(
                newRun({
                  workflow_id: agent.id,
                  agent_definition_id: definition.value.id,
                  organization_id: request.organizationId,
                  mode: "phone",
                  status: "queued",
                  phone_number: phoneNumber,
                  initial_context: initialContext,
                  campaign_id: request.campaign_id ?? null,
                  trigger_id: request.trigger_id ?? null,
                  channel_reservation_id: reservationId
                }),
                now
              )
              .pipe(Effect.onExit((exit) => (Exit.isFailure(exit) ? release : Effect.void)))
            const workflow = definition.value.workflow_definition
            // interruptible, unless the runtime's hand-off cannot be taken back once begun
            const handOff = telephony.shieldedHandOff === true ? identity : restore
            yield* handOff(
              telephony.placeCall({
                run,
                agent,
                definition: definition.value,
                from_phone_number: fromNumber,
                first_message: InitialContextTemplate.renderBounded(
                  workflow.first_message,
                  initialContext,
                  ConversationLimits.firstMessageChars
                ),
                system_prompt: InitialContextTemplate.renderBounded(
                  workflow.system_prompt,
                  initialContext,
                  ConversationLimits.systemPromptChars
                )
              })
            ).pipe(
              Effect.onExit((exit) =>
                Exit.isFailure(exit)
                  ? // an end like any other (`CallEvents`): the channel freed once, its webhooks, ledger
                    // line and "call ended" count; should even that fail, the channel is freed here
                    events
                      .report(request.organizationId, run.workflow_run_id, {
                        type: "ended",
                        status: "failed",
                        duration_seconds: 0
                      })
                      .pipe(
                        Effect.catchAllCause((cause) =>
                          Effect.zipRight(
                            Effect.logWarning(
                              `run ${run.workflow_run_id}: the refused call's end was not written`,
                              cause
                            ),
                            release
                          )
                        )
                      )
                  : Effect.void
              )
            )
            return run
          })
        )
      })

    /** Each call placed, and each one a gate refused, is logged and counted (`OperationalEvents`). */
    const placeObserved = (request: PlaceCallRequest) =>
      place(request).pipe(
        Effect.tap(OperationalEvents.callPlaced),
        Effect.tapError((error) => {
          const gate = refusingGate(error)
          return gate === undefined
            ? Effect.void
            : OperationalEvents.callRefused(gate, request.organizationId)
        })
      )

    return {
      place: OperationSpans.fn("CallPlacement.place")(placeObserved, (effect, request) =>
        SpanAttributes.annotated(
          // the run placed too, once there is one
          Effect.tap(effect, (run) => SpanAttributes.annotated(Effect.void, { run_id: run.workflow_run_id })),
          {
            organization_id: request.organizationId,
            agent_id: SpanAttributes.agentId(request.agent),
            ...(request.campaign_id === undefined ? {} : { campaign_id: request.campaign_id })
          }
        )
      )
    }
  })
)

/** The gate a placement error comes from, if it is a gate's refusal. */
const refusingGate = (error: PlaceCallError): OperationalEvents.Gate | undefined => {
  switch (error._tag) {
    case "DoNotCallListed":
      return "do_not_call"
    case "OutsideCallingHours":
      return "calling_hours"
    case "ChannelsBusy":
      return "channels"
    default:
      return undefined
  }
}
