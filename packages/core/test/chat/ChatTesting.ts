import { Effect, Layer, Option, Ref, Schema } from "effect"
import { Agents } from "../../src/agents/Agents.js"
import { CallScriptRequest } from "../../src/agents/CallScript.js"
import * as RunAnalysis from "../../src/analysis/RunAnalysis.js"
import * as Chats from "../../src/chat/Chats.js"
import * as ImprovementGeneration from "../../src/improvements/ImprovementGeneration.js"
import { InMemory } from "../../src/index.js"
import * as OutboundHttp from "../../src/outbound/OutboundHttp.js"
import type { OrganizationId } from "../../src/organizations/Organization.js"
import { Runs } from "../../src/runs/Runs.js"
import { CreateToolRequest } from "../../src/tools/Tool.js"
import { Tools } from "../../src/tools/Tools.js"
import * as Fixtures from "../../testing/Fixtures.js"
import * as ScriptedModel from "../conversation/ScriptedModel.js"
import { ModelScript } from "../conversation/ScriptedModel.js"
import type { ModelRequest } from "../../src/language-model/LanguageModel.js"
import type { RunId } from "../../src/runs/RunId.js"
import { RunStore } from "../../src/runs/RunStore.js"

/** Tool requests the chats sent out, answered with `{"weather": "sunny"}`. */
export class Outbound extends Effect.Service<Outbound>()("test/ChatOutbound", {
  effect: Ref.make<ReadonlyArray<OutboundHttp.OutboundRequest>>([])
}) {}

const outbound = Layer.effect(
  OutboundHttp.OutboundHttp,
  Effect.map(Outbound, (sent) => ({
    send: (request: OutboundHttp.OutboundRequest) =>
      Effect.as(
        Ref.update(sent, (all) => [...all, request]),
        {
          status: 200,
          headers: { "content-type": "application/json" },
          body: new TextEncoder().encode(JSON.stringify({ weather: "sunny" })),
          truncated: false
        }
      )
  }))
)

/**
 * The engine in memory with chats whose tools go to `Outbound`, the scripted model (`ModelScript`), the
 * analysis and the improvement generation.
 */
export const layer = Layer.mergeAll(Chats.layerWithTools, RunAnalysis.layer).pipe(
  Layer.provideMerge(ImprovementGeneration.layer),
  Layer.provideMerge(outbound),
  Layer.provideMerge(Outbound.Default),
  Layer.provideMerge(ScriptedModel.layer),
  Layer.provideMerge(InMemory.layer)
)

/** An organization with an agent made from a call script with a plan and two data fields. */
export const organizationWithAgent = Effect.gen(function* () {
  const organization = yield* Fixtures.organization()
  const created = yield* (yield* Agents).createFromScript(
    organization.id,
    Schema.decodeUnknownSync(CallScriptRequest)({
      agent: {
        greeting: "Hello {{initial_context.first_name}}, this is Ada.",
        agent_goal: "Confirm the appointment",
        conversation_structure: ["Confirm the time"],
        data_fields: ["email", { name: "preferred_time", type: "string" }]
      }
    })
  )
  return { organization, agent: created.agent }
})

/** A tool of the organization. */
export const tool = (organizationId: OrganizationId, name: string, definition: unknown) =>
  Effect.flatMap(Tools, (tools) =>
    tools.create(organizationId, Schema.decodeUnknownSync(CreateToolRequest)({ name, definition }))
  )

/** A new chat run of the agent. */
export const chat = (
  organizationId: OrganizationId,
  agentId: string,
  initial_context: Record<string, unknown> = {}
) =>
  Effect.flatMap(Runs, (runs) =>
    runs.createConversation(organizationId, agentId, { mode: "chat", initial_context })
  )

/** Sends a message, keeping what was emitted. */
export const send = (
  organizationId: OrganizationId,
  agentId: string,
  runId: Parameters<Chats.Chats["Type"]["send"]>[2],
  text?: string
) =>
  Effect.gen(function* () {
    const chats = yield* Chats.Chats
    const events: Array<Chats.ChatEvent> = []
    const reply = yield* chats.send(organizationId, agentId, runId, text, (event) =>
      Effect.sync(() => {
        events.push(event)
      })
    )
    return { reply, events }
  })

/** The `index`-th streamed request the scripted model was sent. */
export const streamed = (index: number) =>
  Effect.map(ModelScript, (script) => script.requests).pipe(
    Effect.flatten,
    Effect.map((sent) => sent.filter((s) => s.kind === "stream")[index]!.request as ModelRequest)
  )

/** The run as stored. */
export const stored = (organizationId: OrganizationId, runId: RunId) =>
  Effect.flatMap(RunStore, (runs) => runs.find(organizationId, runId)).pipe(Effect.map(Option.getOrThrow))
