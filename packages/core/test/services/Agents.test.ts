import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, Fiber, Layer, Schema, TestClock } from "effect"
import { Agents } from "../../src/agents/Agents.js"
import { CallScriptRequest } from "../../src/agents/CallScript.js"
import { PromptWriter } from "../../src/agents/PromptWriter.js"
import { PromptWriterFailure } from "../../src/agents/AgentErrors.js"
import { InMemory } from "../../src/index.js"
import * as ModelChoices from "../../src/language-model/ModelChoices.js"
import { IntegrationStore } from "../../src/integrations/IntegrationStore.js"
import { RunStore } from "../../src/runs/RunStore.js"
import * as Fixtures from "../../testing/Fixtures.js"
import { engine } from "./Engine.js"

const script = (extra: Record<string, unknown> = {}) =>
  Schema.decodeUnknownSync(CallScriptRequest)({ agent: { greeting: "Dzień dobry!" }, ...extra })

describe("Agents", () => {
  it.effect("creates an agent from a script with a random public id and version 1", () =>
    Effect.gen(function* () {
      const agents = yield* Agents
      const org = yield* Fixtures.organization()
      const created = yield* agents.createFromScript(org.id, script({ agent_name: "Recepcja" }))
      expect(created.agent.public_id).toMatch(/^agent_[A-Za-z0-9]{20}$/)
      expect(created.agent).toMatchObject({ name: "Recepcja", status: "active", organization_id: org.id })
      expect(created.definition).toMatchObject({ version: 1, agent_id: created.agent.id })
      expect(created.definition.workflow_definition.first_message).toBe("Dzień dobry!")
      expect(created.total_runs).toBe(0)
      const other = yield* agents.createFromScript(org.id, script())
      expect(other.agent.public_id).not.toBe(created.agent.public_id)

      yield* (yield* RunStore).insert(Fixtures.newRun(org.id, created.agent.id), Fixtures.epoch)
      expect((yield* agents.get(org.id, created.agent.public_id)).total_runs).toBe(1)
      expect((yield* agents.list(org.id, {}, { page: 1, limit: 1 })).total_count).toBe(2)
      const patched = yield* agents.update(org.id, String(created.agent.id), { name: "Renamed" })
      expect(patched.agent.name).toBe("Renamed")
      expect(
        (yield* Effect.flip(agents.get((yield* Fixtures.organization()).id, created.agent.public_id)))._tag
      ).toBe("AgentNotFound")
    }).pipe(Effect.provide(engine))
  )

  it.effect("attaches booking only on an existing connection of the organization", () =>
    Effect.gen(function* () {
      const agents = yield* Agents
      const org = yield* Fixtures.organization()
      const booking = script({ enable_booking: true, scheduler_connection_id: "conn_cal" })
      const missing = yield* Effect.flip(agents.createFromScript(org.id, booking))
      expect(missing).toMatchObject({ _tag: "IntegrationConnectionNotFound", connection_id: "conn_cal" })
      yield* (yield* IntegrationStore).insert({
        id: "conn_cal",
        organization_id: org.id,
        provider: "calendly",
        name: "Calendar",
        config: {},
        enabled: true,
        auth_error: null,
        created_at: Fixtures.epoch,
        updated_at: Fixtures.epoch
      })
      const created = yield* agents.createFromScript(org.id, booking)
      expect(created.definition.workflow_definition.tools).toEqual([
        { type: "booking", scheduler_connection_id: "conn_cal" }
      ])
    }).pipe(Effect.provide(engine))
  )

  const writer = (result: Effect.Effect<string, PromptWriterFailure>) =>
    Layer.succeed(PromptWriter, {
      writeSystemPrompt: () =>
        Effect.map(result, (system_prompt) => ({
          system_prompt,
          usage: { prompt_tokens: 1_000, completion_tokens: 200 }
        }))
    })
  // A PromptWriter is configured by providing it to the engine's layer.
  const engineWith = (writerLayer: Layer.Layer<PromptWriter>) =>
    InMemory.layer.pipe(Layer.provide(writerLayer))

  it.effect("lets a configured language model write the prompt when asked to", () =>
    Effect.gen(function* () {
      const agents = yield* Agents
      const org = yield* Fixtures.organization()
      const withAi = yield* agents.createFromScript(org.id, script({ generate_with_ai: true }))
      expect(withAi.definition.workflow_definition.system_prompt).toBe("Written by the model.")
      const without = yield* agents.createFromScript(org.id, script())
      expect(without.definition.workflow_definition.system_prompt).toContain("## Role")
    }).pipe(Effect.provide(engineWith(writer(Effect.succeed("Written by the model.")))))
  )

  for (const [name, outcome] of [
    ["fails", Effect.fail(new PromptWriterFailure({ reason: "quota" }))],
    ["crashes", Effect.die("boom")],
    ["never answers", Effect.never]
  ] as const) {
    it.effect(`keeps the composed prompt when the language model ${name}`, () =>
      Effect.gen(function* () {
        const agents = yield* Agents
        const org = yield* Fixtures.organization()
        const fiber = yield* Effect.fork(agents.createFromScript(org.id, script({ generate_with_ai: true })))
        yield* TestClock.adjust("31 seconds")
        const created = yield* Fiber.join(fiber)
        expect(created.definition.workflow_definition.system_prompt).toContain("## Role")
      }).pipe(Effect.provide(engineWith(writer(outcome))))
    )
  }
})

describe("Agents: the model an agent chooses", () => {
  it.effect("only a model the server allows (LLM_ALLOWED_MODELS); any with no list", () =>
    Effect.gen(function* () {
      const agents = yield* Agents
      const org = yield* Fixtures.organization()
      const created = yield* agents.createFromScript(org.id, script())
      const choose = (model: string) =>
        Effect.either(
          agents.update(org.id, created.agent.public_id, {
            workflow_configurations: { model: { model, temperature: 0.3 } }
          })
        )
      const allowed = yield* choose("small-model")
      expect(Either.isRight(allowed) && allowed.right.agent.workflow_configurations.model).toEqual({
        model: "small-model",
        temperature: 0.3
      })
      const refused = yield* choose("expensive-model")
      expect(Either.isLeft(refused) && refused.left).toMatchObject({
        _tag: "ModelNotAllowed",
        model: "expensive-model",
        allowed: ["small-model", "default-model"]
      })
      // nothing was changed by the refused choice
      expect(
        (yield* agents.get(org.id, created.agent.public_id)).agent.workflow_configurations.model
      ).toEqual({
        model: "small-model",
        temperature: 0.3
      })
    }).pipe(
      Effect.provide(
        InMemory.layer.pipe(Layer.provide(ModelChoices.layer({ allowed: ["small-model", "default-model"] })))
      )
    )
  )
})
