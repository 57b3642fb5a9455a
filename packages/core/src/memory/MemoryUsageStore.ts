import { Effect, Layer } from "effect"
import { MinorUnits } from "../money/Money.js"
import type { UsageRecord } from "../usage/UsageRecord.js"
import { UsageRecordId } from "../usage/UsageRecord.js"
import * as UsageReport from "../usage/UsageReport.js"
import type { NewUsageRecord, UsagePeriod } from "../usage/UsageStore.js"
import { UsageStore } from "../usage/UsageStore.js"
import { MemoryDatabase } from "./MemoryDatabase.js"
import { organizationTable } from "./OrganizationTable.js"

/** Whether a ledger line falls in the period: `from` inclusive, `to` exclusive. */
const within = (period: UsagePeriod) => (line: UsageRecord) =>
  (period.from === undefined || line.recorded_at.getTime() >= period.from.getTime()) &&
  (period.to === undefined || line.recorded_at.getTime() < period.to.getTime())

/** The billing ledger in memory. */
export const layer: Layer.Layer<UsageStore, never, MemoryDatabase> = Layer.effect(
  UsageStore,
  Effect.gen(function* () {
    const db = yield* MemoryDatabase
    const lines = organizationTable(db.table<UsageRecordId, UsageRecord>("usage_records"), {
      at: (l) => l.recorded_at,
      id: (l) => l.id
    })
    /**
     * The run's line of the kind: the one it has, or this one stored (an `improvements` line is always
     * stored, as the SQL ledger's unique index leaves them out).
     */
    const recordOne = (line: NewUsageRecord): UsageRecord => {
      const [existing] =
        line.run_id === null || line.kind === "improvements"
          ? []
          : lines.ownRows(line.organization_id, (l) => l.run_id === line.run_id && l.kind === line.kind)
      if (existing !== undefined) return existing
      const row: UsageRecord = { ...line, id: UsageRecordId.make(db.nextId("usage_records")) }
      lines.set(row.id, row)
      return row
    }
    return {
      record: (line) => db.atomically(() => recordOne(line)),
      recordMany: (many) =>
        db.atomically(() => {
          for (const line of many) recordOne(line)
        }),
      list: (organizationId, period, page) =>
        db.atomically(() => lines.newestPage(organizationId, page, within(period))),
      totals: (organizationId, period) =>
        db.atomically(() => {
          const selected = lines.ownRows(organizationId, within(period))
          return {
            calls: selected.filter((l) => l.kind === "call").length,
            duration_seconds: selected.reduce((sum, l) => sum + l.duration_seconds, 0),
            cost: MinorUnits.make(selected.reduce((sum, l) => sum + l.cost, 0))
          }
        }),
      // the in-memory ledger scans its lines: the reference the SQL aggregation is checked against
      report: (organizationId, period, groupBy) =>
        db.atomically(() => UsageReport.group(lines.ownRows(organizationId, within(period)), groupBy))
    }
  })
)
