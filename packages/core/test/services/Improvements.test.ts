import { describe, expect, it } from "@effect/vitest"
import { Effect, Either } from "effect"
import { Agents } from "../../src/agents/Agents.js"
import { ImprovementId } from "../../src/improvements/Improvement.js"
import { Improvements } from "../../src/improvements/Improvements.js"
import { RunStore } from "../../src/runs/RunStore.js"
import * as Fixtures from "../../testing/Fixtures.js"
import { engine, organizationWithAgent, setNow } from "./Engine.js"

const firstPage = { page: 1, limit: 50 }

describe("Improvements", () => {
  it.effect("accepting appends the text to the system prompt as a new definition version", () =>
    Effect.gen(function* () {
      yield* setNow("2026-04-01T09:00:00Z")
      const { organization, agent, definition } = yield* organizationWithAgent()
      const improvements = yield* Improvements
      const agents = yield* Agents
      const suggestion = yield* improvements.suggest(organization.id, agent.public_id, {
        text: "Always repeat the appointment date.",
        rationale: "Callers misheard dates"
      })
      expect(suggestion).toMatchObject({
        status: "pending",
        rationale: "Callers misheard dates",
        source_run_id: null
      })
      // nothing changes until the suggestion is accepted
      expect((yield* agents.get(organization.id, agent.public_id)).definition.id).toBe(definition.id)

      yield* setNow("2026-04-01T09:05:00Z")
      const { improvement, agent: updated } = yield* improvements.accept(
        organization.id,
        agent.public_id,
        suggestion.id
      )
      expect(improvement).toMatchObject({ status: "accepted", decided_at: new Date("2026-04-01T09:05:00Z") })
      expect(updated.current_definition_id).not.toBe(definition.id)
      expect(improvement.applied_definition_id).toBe(updated.current_definition_id)
      const view = yield* agents.get(organization.id, String(agent.id))
      expect(view.definition.version).toBe(2)
      expect(view.definition.workflow_definition.system_prompt).toBe(
        `${definition.workflow_definition.system_prompt}\n\nAlways repeat the appointment date.`
      )
      const versions = yield* agents.definitions(organization.id, agent.public_id, firstPage)
      expect(versions.items.map((d) => d.version)).toEqual([2, 1])
    }).pipe(Effect.provide(engine))
  )

  it.effect("dismissing changes nothing; a decided suggestion cannot be decided again", () =>
    Effect.gen(function* () {
      const { organization, agent, definition } = yield* organizationWithAgent()
      const improvements = yield* Improvements
      const suggestion = yield* improvements.suggest(organization.id, agent.public_id, {
        text: "Say goodbye."
      })
      const dismissed = yield* improvements.dismiss(organization.id, agent.public_id, suggestion.id)
      expect(dismissed.improvement.status).toBe("dismissed")
      expect(dismissed.agent.current_definition_id).toBe(definition.id)
      for (const decide of [improvements.accept, improvements.dismiss]) {
        const error = yield* Effect.flip(decide(organization.id, agent.public_id, suggestion.id))
        expect(error).toMatchObject({ _tag: "ImprovementAlreadyDecided", status: "dismissed" })
      }
      expect(
        (yield* improvements.list(organization.id, agent.public_id, { status: "dismissed" }, firstPage))
          .total_count
      ).toBe(1)
      expect(
        (yield* improvements.list(organization.id, agent.public_id, { status: "pending" }, firstPage))
          .total_count
      ).toBe(0)
    }).pipe(Effect.provide(engine))
  )

  it.effect("two simultaneous accepts append once", () =>
    Effect.gen(function* () {
      const { organization, agent, definition } = yield* organizationWithAgent()
      const improvements = yield* Improvements
      const suggestion = yield* improvements.suggest(organization.id, agent.public_id, { text: "Once only." })
      const results = yield* Effect.all(
        Array.from({ length: 2 }, () =>
          Effect.either(improvements.accept(organization.id, agent.public_id, suggestion.id))
        ),
        { concurrency: "unbounded" }
      )
      expect(results.filter(Either.isRight)).toHaveLength(1)
      expect(results.filter(Either.isLeft).map((r) => r.left._tag)).toEqual(["ImprovementAlreadyDecided"])
      const view = yield* (yield* Agents).get(organization.id, agent.public_id)
      expect(view.definition.version).toBe(2)
      expect(view.definition.workflow_definition.system_prompt).toBe(
        `${definition.workflow_definition.system_prompt}\n\nOnce only.`
      )
    }).pipe(Effect.provide(engine))
  )

  it.effect("accepting different suggestions at once keeps every text", () =>
    Effect.gen(function* () {
      const { organization, agent } = yield* organizationWithAgent()
      const improvements = yield* Improvements
      const suggestions = yield* Effect.all(
        ["One.", "Two.", "Three."].map((text) =>
          improvements.suggest(organization.id, agent.public_id, { text })
        )
      )
      yield* Effect.all(
        suggestions.map((s) => improvements.accept(organization.id, agent.public_id, s.id)),
        { concurrency: "unbounded" }
      )
      const prompt = (yield* (yield* Agents).get(organization.id, agent.public_id)).definition
        .workflow_definition.system_prompt
      for (const text of ["One.", "Two.", "Three."]) expect(prompt).toContain(`\n\n${text}`)
    }).pipe(Effect.provide(engine))
  )

  it.effect(
    "another agent's or organization's suggestion is not found; a source run must be the agent's",
    () =>
      Effect.gen(function* () {
        const { organization, agent } = yield* organizationWithAgent()
        const second = yield* Fixtures.agent(organization.id, "Second")
        const stranger = yield* Fixtures.organization()
        const improvements = yield* Improvements
        const suggestion = yield* improvements.suggest(organization.id, agent.public_id, { text: "Mine." })
        const wrongAgent = yield* Effect.flip(
          improvements.accept(organization.id, second.agent.public_id, suggestion.id)
        )
        expect(wrongAgent._tag).toBe("ImprovementNotFound")
        const wrongOrg = yield* Effect.flip(improvements.accept(stranger.id, agent.public_id, suggestion.id))
        expect(wrongOrg._tag).toBe("AgentNotFound")
        const missing = yield* Effect.flip(
          improvements.dismiss(organization.id, agent.public_id, ImprovementId.make(9999))
        )
        expect(missing._tag).toBe("ImprovementNotFound")

        const run = yield* (yield* RunStore).insert(
          Fixtures.newRun(organization.id, second.agent.id),
          Fixtures.epoch
        )
        const foreignRun = yield* Effect.flip(
          improvements.suggest(organization.id, agent.public_id, {
            text: "x",
            source_run_id: run.workflow_run_id
          })
        )
        expect(foreignRun._tag).toBe("RunNotFound")
        const fromRun = yield* improvements.suggest(organization.id, second.agent.public_id, {
          text: "x",
          source_run_id: run.workflow_run_id
        })
        expect(fromRun.source_run_id).toBe(run.workflow_run_id)
      }).pipe(Effect.provide(engine))
  )
})
