import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Schema } from "effect"
import { Agents } from "../../src/agents/Agents.js"
import { CallScriptRequest } from "../../src/agents/CallScript.js"
import * as ModelPromptWriter from "../../src/agents/ModelPromptWriter.js"
import { InMemory } from "../../src/index.js"
import { ModelUnavailable } from "../../src/language-model/LanguageModelErrors.js"
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
})
