import { Effect, Option } from "effect"
import type { CampaignId } from "../../src/campaigns/Campaign.js"
import { CampaignStore } from "../../src/campaigns/CampaignStore.js"
import type { ImportRow } from "../../src/campaigns/ContactImport.js"
import type { OrganizationId } from "../../src/organizations/Organization.js"
import type { Run } from "../../src/runs/Run.js"
import { RunStore } from "../../src/runs/RunStore.js"

// 12:00 in Warsaw (CET)
export const warsawNoon = "2026-02-10T11:00:00.000Z"
// 22:30 in Warsaw, 16:30 in New York
export const warsawNight = "2026-02-10T21:30:00.000Z"

/** Import rows of the numbers, each with its position as context. */
export const rows = (numbers: ReadonlyArray<string>): ReadonlyArray<ImportRow> =>
  numbers.map((phone_number, i) => ({ row: i + 1, phone_number, initial_context: { n: i } }))

/** Every run of the agent, whole (the list shows a summary), read a page at a time. */
export const runsOf = (organizationId: OrganizationId, agentId: Run["workflow_id"]) =>
  Effect.gen(function* () {
    const store = yield* RunStore
    const all: Array<Run> = []
    for (let page = 1; ; page++) {
      const found = yield* store.list(organizationId, agentId, {}, { page, limit: 100 })
      for (const summary of found.items) {
        all.push(Option.getOrThrow(yield* store.find(organizationId, summary.workflow_run_id)))
      }
      if (page >= found.total_pages) return all
    }
  })

/** The campaign as stored now. */
export const campaignOf = (organizationId: OrganizationId, id: CampaignId) =>
  Effect.map(
    Effect.flatMap(CampaignStore, (s) => s.find(organizationId, id)),
    Option.getOrThrow
  )
