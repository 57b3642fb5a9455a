import { Effect, Schema, TestClock } from "effect"
import { Agents } from "../../src/agents/Agents.js"
import { CallScriptRequest } from "../../src/agents/CallScript.js"
import { InMemory } from "../../src/index.js"
import * as Fixtures from "../../testing/Fixtures.js"

/** The whole engine in memory, fresh for each test that provides it. */
export const engine = InMemory.layer

/** Moves the test clock to an instant. */
export const setNow = (iso: string) => TestClock.setTime(new Date(iso).getTime())

/** An organization with an agent made from a small call script. */
export const organizationWithAgent = (
  options: { readonly outbound_channels?: number; readonly balance?: number } = {}
) =>
  Effect.gen(function* () {
    const organization = yield* Fixtures.organization(options)
    const agents = yield* Agents
    const created = yield* agents.createFromScript(
      organization.id,
      Schema.decodeUnknownSync(CallScriptRequest)({
        agent: { greeting: "Hello {{initial_context.first_name}}!", agent_goal: "Confirm the appointment" }
      })
    )
    return { organization, agent: created.agent, definition: created.definition }
  })
