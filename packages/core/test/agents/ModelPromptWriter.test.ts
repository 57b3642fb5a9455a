import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Schema } from "effect"
import { Agents } from "../../src/agents/Agents.js"
import { CallScriptRequest } from "../../src/agents/CallScript.js"
import * as ModelPromptWriter from "../../src/agents/ModelPromptWriter.js"
import { InMemory } from "../../src/index.js"
import { ModelUnavailable } from "../../src/language-model/LanguageModelErrors.js"
import * as ModelPricing from "../../src/language-model/ModelPricing.js"
import { UsageStore } from "../../src/usage/UsageStore.js"
import * as Fixtures from "../../testing/Fixtures.js"
import * as ScriptedModel from "../conversation/ScriptedModel.js"
import { ModelScript, fail, text } from "../conversation/ScriptedModel.js"

/** The engine in memory whose `generate_with_ai` asks the scripted model through `ModelPromptWriter`. */
const engine = InMemory.layerWithModel(ScriptedModel.layer).pipe(
  Layer.provide(ModelPromptWriter.layer.pipe(Layer.provideMerge(ScriptedModel.layer))),
  // the script the tests write (one instance: the layer is built once)
  Layer.provideMerge(ScriptedModel.layer)
)

const script = CallScriptRequest.pipe(Schema.decodeUnknownSync)({
  agent: {
    greeting: "Hello!",
    agent_goal: "Confirm the visit",
    required_phrases: ["This call is recorded."]
  },
  generate_with_ai: true
})

describe("ModelPromptWriter", () => {
  it.effect("asks the model to rewrite the composed prompt from the script, and keeps its answer", () =>
    Effect.gen(function* () {
      yield* (yield* ModelScript).push(
        text("  You are Ada. Confirm the visit. Say: This call is recorded.  ")
      )
      const organization = yield* Fixtures.organization()
      const created = yield* (yield* Agents).createFromScript(organization.id, script)
      expect(created.definition.workflow_definition.system_prompt).toBe(
        "You are Ada. Confirm the visit. Say: This call is recorded."
      )
      const [sent] = yield* (yield* ModelScript).requests
      const user = (sent!.request.messages.at(-1) as { content: string }).content
      expect(user).toContain("This call is recorded.")
      expect(user).toContain("## Required phrases")
    }).pipe(Effect.provide(engine))
  )

  it.effect("keeps the composed prompt when the model fails or writes nothing", () =>
    Effect.gen(function* () {
      const organization = yield* Fixtures.organization()
      const agents = yield* Agents
      yield* (yield* ModelScript).push(fail(new ModelUnavailable({ reason: "down" })), text("   "))
      for (let i = 0; i < 2; i++) {
        const created = yield* agents.createFromScript(organization.id, script)
        expect(created.definition.workflow_definition.system_prompt).toContain("## Required phrases")
      }
    }).pipe(Effect.provide(engine))
  )

  it.effect("charges the organization the tokens of every reply, kept or refused, as a `prompt` line", () =>
    Effect.gen(function* () {
      const organization = yield* Fixtures.organization()
      const other = yield* Fixtures.organization()
      const agents = yield* Agents
      yield* (yield* ModelScript).push(
        text("You are Ada.", { prompt_tokens: 2_000, completion_tokens: 500 }),
        text("   ", { prompt_tokens: 1_000, completion_tokens: 1 }),
        fail(new ModelUnavailable({ reason: "down" }))
      )
      const created = []
      for (let i = 0; i < 3; i++) created.push(yield* agents.createFromScript(organization.id, script))
      // without generate_with_ai the model is not asked and nothing is charged
      yield* agents.createFromScript(organization.id, { ...script, generate_with_ai: false })
      const ledger = yield* UsageStore
      const lines = yield* ledger.list(organization.id, {}, { page: 1, limit: 10 })
      const charged = lines.items
        .map((l) => ({
          kind: l.kind,
          run_id: l.run_id,
          agent_id: l.agent_id,
          mode: l.mode,
          prompt_tokens: l.prompt_tokens,
          completion_tokens: l.completion_tokens,
          cost: l.cost
        }))
        // ids are drawn at random: in the order the replies were scripted (most tokens first)
        .sort((a, b) => b.prompt_tokens - a.prompt_tokens)
      // 2,000 × 4 PLN/Mtok + 500 × 16 PLN/Mtok = 0.016 PLN: 2 grosze (rounded up); 1,000 × 4 + 16 = 0.004016: 1
      expect(charged).toEqual([
        {
          kind: "prompt",
          run_id: null,
          agent_id: created[0]!.agent.id,
          mode: "prompt",
          prompt_tokens: 2_000,
          completion_tokens: 500,
          cost: 2
        },
        {
          kind: "prompt",
          run_id: null,
          agent_id: created[1]!.agent.id,
          mode: "prompt",
          prompt_tokens: 1_000,
          completion_tokens: 1,
          cost: 1
        }
      ])
      const totals = yield* ledger.totals(organization.id, {})
      expect(totals.calls).toBe(0)
      expect((yield* ledger.list(other.id, {}, { page: 1, limit: 10 })).items).toEqual([])
    }).pipe(
      Effect.provide(engine),
      Effect.provide(ModelPricing.layer({ pln_per_mtok_in: 4, pln_per_mtok_out: 16 }))
    )
  )
})
