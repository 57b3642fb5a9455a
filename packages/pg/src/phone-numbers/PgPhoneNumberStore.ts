import { SqlClient } from "@effect/sql"
import { NumberRequest, PhoneNumber } from "@voice-agent-platform/core/phone-numbers/PhoneNumber.js"
import { PhoneNumberExists } from "@voice-agent-platform/core/phone-numbers/PhoneNumberErrors.js"
import { PhoneNumberStore } from "@voice-agent-platform/core/phone-numbers/PhoneNumberStore.js"
import { Effect, Layer, Option } from "effect"
import * as Paging from "../storage/Paging.js"
import * as Rows from "../storage/Rows.js"

/**
 * The number inventory, the organizations' numbers and demand requests in PostgreSQL.
 *
 * A number is in the inventory at most once (a unique index over the numbers not released, with
 * `ON CONFLICT DO NOTHING`). A claim is one UPDATE of a row that is still `available`: of two orders
 * racing for the same number, in any processes, the second finds it taken; an order for any number of a
 * type skips rows another order has locked and takes the next.
 */
export const layer: Layer.Layer<PhoneNumberStore, never, SqlClient.SqlClient> = Layer.effect(
  PhoneNumberStore,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const one = Rows.first(PhoneNumber)
    const phoneNumbersList = Paging.list(
      sql,
      { table: "phone_numbers", orderBy: "coalesce(activated_at, created_at) DESC, id DESC" },
      Rows.all(PhoneNumber)
    )
    const numberRequestsList = Paging.list(
      sql,
      { table: "number_requests", orderBy: "created_at DESC, id DESC" },
      Rows.all(NumberRequest)
    )

    return {
      addToInventory: (input, now) =>
        one(sql`
          INSERT INTO phone_numbers ${sql.insert({
            number: input.number,
            number_type: input.number_type,
            status: "available",
            organization_id: null,
            activated_at: null,
            released_at: null,
            created_at: now
          })}
          ON CONFLICT (number) WHERE status <> 'released' DO NOTHING RETURNING *`).pipe(
          Effect.flatMap(
            Option.match({
              onNone: () => Effect.fail(new PhoneNumberExists({ number: input.number })),
              onSome: Effect.succeed
            })
          )
        ),
      find: (id) => one(sql`SELECT * FROM phone_numbers WHERE id = ${id}`),
      listOwned: (organizationId, page) => phoneNumbersList(sql`organization_id = ${organizationId}`, page),
      oldestActive: (organizationId) =>
        one(sql`
          SELECT * FROM phone_numbers WHERE organization_id = ${organizationId} AND status = 'active'
          ORDER BY coalesce(activated_at, created_at), id LIMIT 1`),
      claim: (organizationId, choice, now) =>
        one(sql`
          UPDATE phone_numbers
          SET status = 'active', organization_id = ${organizationId}, activated_at = ${now}
          WHERE status = 'available' AND number_type = ${choice.number_type} AND id = ${
            choice.id !== undefined
              ? choice.id
              : sql`(
                  SELECT id FROM phone_numbers WHERE status = 'available' AND number_type = ${choice.number_type}
                  ORDER BY created_at, id LIMIT 1 FOR UPDATE SKIP LOCKED
                )`
          }
          RETURNING *`),
      release: (organizationId, id, now) =>
        one(sql`
          UPDATE phone_numbers SET status = 'released', released_at = ${now}
          WHERE organization_id = ${organizationId} AND id = ${id} AND status = 'active' RETURNING *`),
      insertRequest: (request, now) =>
        Rows.single(NumberRequest)(sql`
          INSERT INTO number_requests ${sql.insert({ ...request, status: "open", created_at: now })}
          RETURNING *`),
      listRequests: (organizationId, page) =>
        numberRequestsList(sql`organization_id = ${organizationId}`, page)
    }
  })
)
