import type { SqlClient, Statement } from "@effect/sql"
import type { OrganizationId } from "@voice-agent-platform/core/organizations/Organization.js"
import { Effect, Option } from "effect"
import { Count } from "./Paging.js"
import * as Rows from "./Rows.js"

/**
 * Locks the organization's row until the transaction ends (`FOR NO KEY UPDATE`): what every decision over
 * a count of the organization's rows takes first, so that two such decisions take turns.
 */
export const lockOrganization = (
  sql: SqlClient.SqlClient,
  organizationId: OrganizationId
): Effect.Effect<void> =>
  Rows.execute(sql`SELECT id FROM organizations WHERE id = ${organizationId} FOR NO KEY UPDATE`)

/**
 * Runs `insert` only while the organization holds fewer than `limit` rows of `table`, in one transaction
 * that first locks the organization's row (`FOR NO KEY UPDATE`): two creations at the limit, in any
 * server processes, take turns, and the second counts the first's row. The lock does not conflict with
 * the key-share locks other tables' foreign keys take, so only quota checks of that organization (and
 * its balance changes) wait for one another. None when the quota is reached; nothing is inserted then.
 * `counted` narrows the rows that count (campaigns: only those not yet ended; API keys: the active ones).
 */
export const insertWithin = <A>(
  sql: SqlClient.SqlClient,
  table: "webhook_endpoints" | "documents" | "campaigns" | "api_keys",
  organizationId: OrganizationId,
  limit: number,
  insert: Effect.Effect<A>,
  counted: Statement.Fragment = sql`TRUE`
): Effect.Effect<Option.Option<A>> =>
  sql
    .withTransaction(
      Effect.gen(function* () {
        yield* lockOrganization(sql, organizationId)
        const { total } = yield* Rows.single(Count)(
          sql`SELECT count(*)::int8 AS total FROM ${sql(table)} WHERE organization_id = ${organizationId} AND ${counted}`
        )
        if (total >= limit) return Option.none<A>()
        return Option.some(yield* insert)
      })
    )
    .pipe(Effect.orDie)
