/** Times, pages, runs and phone numbers the storage contract's sections share. */
import { Effect } from "effect"
import type { OrganizationId } from "../src/organizations/Organization.js"
import { RunStore } from "../src/runs/RunStore.js"
import * as Fixtures from "./Fixtures.js"

/** Page `n` of a list, `limit` to a page. */
export const page = (n: number, limit = 50) => ({ page: n, limit })
/** A stored run of a fresh agent of the organization. */
export const runOf = (organizationId: OrganizationId) =>
  Effect.gen(function* () {
    const { agent } = yield* Fixtures.agent(organizationId)
    return yield* (yield* RunStore).insert(Fixtures.newRun(organizationId, agent.id), at(0))
  })
/** The fixtures' epoch plus `offsetSeconds`. */
export const at = (offsetSeconds: number) => new Date(Fixtures.epoch.getTime() + offsetSeconds * 1000)
// Polish geographic area codes times 10^7 subscriber numbers: collisions stay unlikely even in a
// persistent database that many runs write to.
const areaCodes = [
  12, 13, 14, 15, 16, 17, 18, 22, 23, 24, 25, 29, 32, 33, 34, 41, 42, 43, 44, 46, 48, 52, 54, 55, 56, 58, 59,
  61, 62, 63, 65, 67, 68, 71, 74, 75, 76, 77, 81, 82, 83, 84, 85, 86, 87, 89, 91, 94, 95
]
/** A Polish geographic number no other test is likely to have used. */
export const randomPolishNumber = Effect.map(Fixtures.unique(), (s) => {
  const digits = Array.from(s, (c) => c.charCodeAt(0) % 10).join("")
  return `+48${areaCodes[s.charCodeAt(8) % areaCodes.length]}${digits.slice(0, 7)}`
})
