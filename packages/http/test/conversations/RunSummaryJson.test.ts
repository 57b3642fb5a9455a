import { describe, expect, it } from "@effect/vitest"
import { EncodedPage, Page, Run, RunSummaryJson } from "@voice-agent-platform/core"
import { FastCheck, Schema } from "effect"
import { RunSummaryResponse } from "@voice-agent-platform/contract/conversations/ConversationsApi.js"
import { PageOf } from "@voice-agent-platform/contract/shared/Pagination.js"

/** The list's answer as the platform would write it: the page encoded with its schema, then serialised. */
const schemaEncoded = (page: Page.Page<typeof RunSummaryResponse.Type>) =>
  JSON.stringify(Schema.encodeSync(PageOf(RunSummaryResponse, "RunPage"))(page))

const instant = FastCheck.date({
  min: new Date("1970-01-01T00:00:00.000Z"),
  max: new Date("9999-12-31T23:59:59.999Z"),
  noInvalidDate: true
})
// A `__proto__` key never reaches storage: decoding a request with the schema drops it (as encoding an
// answer would); `JSON.stringify` would keep one. Left out here (the database's text drops one: see
// RunListRows.test.ts).
const key = FastCheck.string().filter((k) => k !== "__proto__")
const context = FastCheck.dictionary(key, FastCheck.jsonValue(), { maxKeys: 6 })
const run = FastCheck.record({
  workflow_run_id: FastCheck.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
  workflow_id: FastCheck.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
  mode: FastCheck.constantFrom(...Run.RunMode.literals),
  status: FastCheck.constantFrom(...Run.RunStatus.literals),
  initial_context: context,
  gathered_context: context,
  duration_seconds: FastCheck.option(FastCheck.integer({ min: 0, max: 1_000_000 }), { nil: null }),
  created_at: instant,
  ended_at: FastCheck.option(instant, { nil: null })
})
const page = FastCheck.record({
  items: FastCheck.array(run, { maxLength: 60 }),
  total: FastCheck.integer({ min: 0, max: 1_000_000 }),
  page: FastCheck.integer({ min: 1, max: 20_000 }),
  limit: FastCheck.integer({ min: 1, max: Page.maxLimit })
})

/**
 * The runs list's answer is written from `RunSummaryJson` (the memory store's `listEncoded` writes its
 * items with it; the database writes the same, see RunListRows.test.ts) and `EncodedPage.json`: byte for
 * byte what encoding the page with `PageOf(RunSummaryResponse)` and serialising it gives.
 */
const runPageJson = (page: Page.Page<Run.RunSummary>) =>
  EncodedPage.json(
    EncodedPage.make(RunSummaryJson.itemsJson(page.items), page.total_count, {
      page: page.page,
      limit: page.limit
    })
  )

/** The run as the store holds it (an organization the answer leaves out). */
const stored = (run: typeof RunSummaryResponse.Type): Run.RunSummary =>
  ({ ...run, organization_id: 7 }) as Run.RunSummary

describe("the runs list's JSON", () => {
  it("is byte for byte the schema-encoded page", () => {
    const items = [
      {
        workflow_run_id: 12,
        workflow_id: 3,
        mode: "chat" as const,
        status: "initialized" as const,
        initial_context: { customer: 'Zoë \u2028 "quoted"', nested: { list: [1, 2.5, null, true] } },
        gathered_context: {},
        duration_seconds: null,
        created_at: new Date("2026-03-01T12:00:00.000Z"),
        ended_at: null
      }
    ]
    const answer = Page.make(items, 61, { page: 1, limit: 50 })
    expect(runPageJson(Page.map(answer, stored))).toBe(schemaEncoded(answer))
    expect(JSON.parse(runPageJson(Page.map(answer, stored))).items[0].created_at).toBe(
      "2026-03-01T12:00:00.000Z"
    )
  })

  it.prop(
    "equals the schema-encoded page for any page of runs",
    [page],
    ([{ items, limit, page, total }]) => {
      const answer = Page.make(items, total, { page, limit })
      expect(runPageJson(Page.map(answer, stored))).toBe(schemaEncoded(answer))
    }
  )
})
