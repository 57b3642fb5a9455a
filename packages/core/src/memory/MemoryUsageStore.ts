import { Effect, Layer } from "effect"
import { MinorUnits } from "../money/Money.js"
import type { OrganizationId } from "../organizations/Organization.js"
import * as Page from "../pagination/Page.js"
import type { UsageRecord } from "../usage/UsageRecord.js"
import { UsageRecordId } from "../usage/UsageRecord.js"
import type { UsagePeriod } from "../usage/UsageStore.js"
import { UsageStore } from "../usage/UsageStore.js"
import { MemoryDatabaseTag, newestFirst } from "./MemoryDatabase.js"

/** The billing ledger in memory. */
export const layer: Layer.Layer<UsageStore, never, MemoryDatabaseTag> = Layer.effect(
  UsageStore,
  Effect.gen(function* () {
    const db = yield* MemoryDatabaseTag
    const lines = db.table<UsageRecordId, UsageRecord>("usage_records")
    const inPeriod = (organizationId: OrganizationId, period: UsagePeriod) =>
      lines
        .values()
        .filter(
          (l) =>
            l.organization_id === organizationId &&
            (period.from === undefined || l.recorded_at.getTime() >= period.from.getTime()) &&
            (period.to === undefined || l.recorded_at.getTime() < period.to.getTime())
        )
    return {
      record: (line) =>
        db.atomically(() => {
          const existing = lines
            .values()
            .find((l) => l.organization_id === line.organization_id && l.run_id === line.run_id)
          if (existing !== undefined) return existing
          const row: UsageRecord = { ...line, id: UsageRecordId.make(db.nextId("usage_records")) }
          lines.set(row.id, row)
          return row
        }),
      list: (organizationId, period, page) =>
        db.atomically(() =>
          Page.slice(
            newestFirst(
              inPeriod(organizationId, period),
              (l) => l.recorded_at,
              (l) => l.id
            ),
            page
          )
        ),
      totals: (organizationId, period) =>
        db.atomically(() => {
          const selected = inPeriod(organizationId, period)
          return {
            calls: selected.length,
            duration_seconds: selected.reduce((sum, l) => sum + l.duration_seconds, 0),
            cost: MinorUnits.make(selected.reduce((sum, l) => sum + l.cost, 0))
          }
        })
    }
  })
)
