import { SqlClient } from "@effect/sql"
import { Campaign, Contact } from "@voice-agent-platform/core/campaigns/Campaign.js"
import type { ContactPatch } from "@voice-agent-platform/core/campaigns/CampaignStore.js"
import { CampaignStore } from "@voice-agent-platform/core/campaigns/CampaignStore.js"
import { Array as Arr, Effect, Layer, Option, Schema } from "effect"
import * as Paging from "../storage/Paging.js"
import * as Rows from "../storage/Rows.js"

/** Contacts per INSERT statement: well below PostgreSQL's 65,535 parameters a statement. */
const contactsPerStatement = 1000

const Found = Schema.Struct({ id: Schema.Number })

/** A contact's column values: the initial context as JSON text, which the jsonb column reads. */
const contactColumns = <A extends { readonly initial_context?: unknown }>(contact: A) =>
  contact.initial_context === undefined
    ? contact
    : { ...contact, initial_context: JSON.stringify(contact.initial_context) }

/** Campaigns and their contacts in PostgreSQL. Contacts are listed in the order they were added (by id). */
export const layer: Layer.Layer<CampaignStore, never, SqlClient.SqlClient> = Layer.effect(
  CampaignStore,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const one = Rows.first(Campaign)
    const find = (organizationId: number, id: number) =>
      one(sql`SELECT * FROM campaigns WHERE organization_id = ${organizationId} AND id = ${id}`)
    return {
      insert: (campaign, now) =>
        Rows.single(Campaign)(sql`
          INSERT INTO campaigns ${sql.insert({ ...campaign, created_at: now })} RETURNING *`),
      find,
      list: (organizationId, page) => {
        const { limit, offset } = Paging.window(page)
        return Paging.page(
          sql<{ readonly total: number }>`
            SELECT count(*)::int8 AS total FROM campaigns WHERE organization_id = ${organizationId}`,
          Rows.all(Campaign)(sql`
            SELECT * FROM campaigns WHERE organization_id = ${organizationId}
            ORDER BY created_at DESC, id DESC LIMIT ${limit} OFFSET ${offset}`),
          page
        )
      },
      update: (organizationId, id, patch) =>
        Object.keys(patch).length === 0
          ? find(organizationId, id)
          : one(sql`
              UPDATE campaigns SET ${sql.update(patch)}
              WHERE organization_id = ${organizationId} AND id = ${id} RETURNING *`),
      addContacts: (organizationId, id, contacts, now) =>
        sql
          .withTransaction(
            Effect.gen(function* () {
              // The campaign must be the organization's; the composite foreign key holds it to that too.
              const campaign = yield* Rows.first(Found)(sql`
                SELECT id FROM campaigns WHERE organization_id = ${organizationId} AND id = ${id}`)
              if (Option.isNone(campaign) || contacts.length === 0) return []
              const rows = contacts.map((contact) => ({
                ...contactColumns(contact),
                campaign_id: id,
                organization_id: organizationId,
                created_at: now
              }))
              // All batches in one transaction: the contacts are added all together or not at all.
              const inserted = yield* Effect.forEach(Arr.chunksOf(rows, contactsPerStatement), (batch) =>
                Rows.all(Contact)(sql`INSERT INTO campaign_contacts ${sql.insert(batch)} RETURNING *`)
              )
              // Ids follow the order of the rows given; RETURNING promises no order, so sort by them.
              return inserted.flat().sort((a, b) => a.id - b.id)
            })
          )
          .pipe(Effect.orDie),
      listContacts: (organizationId, id, filter, page) => {
        const where = sql.and([
          sql`organization_id = ${organizationId}`,
          sql`campaign_id = ${id}`,
          ...(filter.status !== undefined ? [sql`status = ${filter.status}`] : [])
        ])
        const { limit, offset } = Paging.window(page)
        return Paging.page(
          sql<{
            readonly total: number
          }>`SELECT count(*)::int8 AS total FROM campaign_contacts WHERE ${where}`,
          Rows.all(Contact)(sql`
            SELECT * FROM campaign_contacts WHERE ${where} ORDER BY id LIMIT ${limit} OFFSET ${offset}`),
          page
        )
      },
      updateContact: (organizationId, id, patch: ContactPatch) =>
        Object.keys(patch).length === 0
          ? Rows.first(Contact)(sql`
              SELECT * FROM campaign_contacts WHERE organization_id = ${organizationId} AND id = ${id}`)
          : Rows.first(Contact)(sql`
              UPDATE campaign_contacts SET ${sql.update(patch)}
              WHERE organization_id = ${organizationId} AND id = ${id} RETURNING *`)
    }
  })
)
