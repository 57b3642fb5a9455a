import type { Vitest } from "@effect/vitest"
import { describe, expect } from "@effect/vitest"
import { Effect } from "effect"
import { CampaignStore } from "../src/campaigns/CampaignStore.js"
import { ImprovementStore } from "../src/improvements/ImprovementStore.js"
import { DocumentStore } from "../src/knowledge-base/DocumentStore.js"
import { MinorUnits } from "../src/money/Money.js"
import { ApiKeyStore } from "../src/organizations/ApiKeyStore.js"
import type { OrganizationId } from "../src/organizations/Organization.js"
import { PhoneNumberStore } from "../src/phone-numbers/PhoneNumberStore.js"
import type { Stores } from "../src/storage/Stores.js"
import { ToolStore } from "../src/tools/ToolStore.js"
import { UsageStore } from "../src/usage/UsageStore.js"
import * as Fixtures from "./Fixtures.js"
import { runOf, at } from "./ContractFixtures.js"

/** The storage contract for ids; `storeContract` runs it against every adapter. */
export const idContract = (it: Vitest.MethodsNonLive<Stores>) => {
  describe("ids", () => {
    /** Makes one record of a kind for an organization and answers the integer id its tenant sees. */
    type Maker = (organizationId: OrganizationId) => Effect.Effect<number, unknown, Stores>
    const makers: ReadonlyArray<readonly [kind: string, make: Maker]> = [
      ["organization", () => Effect.map(Fixtures.organization(), (org) => org.id)],
      ["agent", (id) => Effect.map(Fixtures.agent(id), ({ agent }) => agent.id)],
      ["agent version", (id) => Effect.map(Fixtures.agent(id), ({ definition }) => definition.id)],
      ["run", (id) => Effect.map(runOf(id), (run) => run.workflow_run_id)],
      [
        "document",
        (id) =>
          Effect.flatMap(Fixtures.unique(), (suffix) =>
            Effect.flatMap(DocumentStore, (documents) =>
              documents.insert(Fixtures.newDocument(id, suffix), at(0))
            )
          ).pipe(Effect.map((document) => document.id))
      ],
      [
        "improvement",
        (id) =>
          Effect.gen(function* () {
            const { agent } = yield* Fixtures.agent(id)
            const improvement = yield* (yield* ImprovementStore).insert(
              {
                organization_id: id,
                agent_id: agent.id,
                text: "Be brief.",
                rationale: null,
                source_run_id: null
              },
              at(0)
            )
            return improvement.id
          })
      ],
      [
        "tool",
        (id) =>
          Effect.gen(function* () {
            const tool = yield* (yield* ToolStore).insert(
              Fixtures.newEndCallTool(id, yield* Fixtures.unique()),
              at(0)
            )
            return tool.id
          })
      ],
      [
        "number request",
        (id) =>
          Effect.flatMap(PhoneNumberStore, (numbers) =>
            numbers.insertRequest(
              { organization_id: id, end_user_id: 1, consent: true, note: "", number_type: null },
              at(0)
            )
          ).pipe(Effect.map((request) => request.id))
      ],
      [
        "usage line",
        (id) =>
          Effect.gen(function* () {
            const run = yield* runOf(id)
            const line = yield* (yield* UsageStore).record({
              organization_id: id,
              run_id: run.workflow_run_id,
              agent_id: run.workflow_id,
              mode: "phone",
              kind: "call" as const,
              prompt_tokens: 0,
              completion_tokens: 0,
              duration_seconds: 1,
              cost: MinorUnits.make(2),
              currency: "PLN",
              recorded_at: at(1)
            })
            return line.id
          })
      ],
      [
        "API key",
        (id) =>
          Effect.gen(function* () {
            const suffix = yield* Fixtures.unique()
            const key = yield* (yield* ApiKeyStore).insert(
              { organization_id: id, key_hash: `hash-${suffix}`, key_prefix: "vap_abcd", name: "Ids" },
              at(0)
            )
            return key.id
          })
      ],
      [
        "campaign",
        (id) =>
          Effect.gen(function* () {
            const { agent } = yield* Fixtures.agent(id)
            const campaign = yield* (yield* CampaignStore).insert(Fixtures.newCampaign(id, agent.id), at(0))
            return campaign.id
          })
      ]
    ]
    const busy = 12

    for (const [kind, make] of makers) {
      it.effect(`${kind} ids tell one organization nothing of how many another created`, () =>
        Effect.gen(function* () {
          const a = yield* Fixtures.organization()
          const b = yield* Fixtures.organization()
          const before = yield* make(b.id)
          const others = yield* Effect.all(Array.from({ length: busy }, () => make(a.id)))
          const after = yield* make(b.id)
          for (const id of [before, after, ...others]) {
            expect(Number.isSafeInteger(id) && id > 0, `${kind} id ${id}`).toBe(true)
          }
          // counted from one sequence shared by all organizations, B's next id would be `busy + 1` further on
          expect(after - before, `${kind}: B's ids ${before} then ${after}`).not.toBe(busy + 1)
        })
      )
    }
  })
}
