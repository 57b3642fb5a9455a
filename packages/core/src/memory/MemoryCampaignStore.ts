import { Effect, Layer } from "effect"
import type { Campaign, Contact } from "../campaigns/Campaign.js"
import { CampaignId, ContactId } from "../campaigns/Campaign.js"
import { CampaignStore } from "../campaigns/CampaignStore.js"
import * as Page from "../pagination/Page.js"
import { MemoryDatabaseTag } from "./MemoryDatabase.js"
import { byCreation, organizationTable } from "./OrganizationTable.js"

/** Campaigns and their contacts in memory. */
export const layer: Layer.Layer<CampaignStore, never, MemoryDatabaseTag> = Layer.effect(
  CampaignStore,
  Effect.gen(function* () {
    const db = yield* MemoryDatabaseTag
    const campaigns = organizationTable(db.table<CampaignId, Campaign>("campaigns"), byCreation)
    const contacts = organizationTable(db.table<ContactId, Contact>("contacts"), byCreation)
    return {
      insert: (campaign, now) =>
        db.atomically(() => {
          const row: Campaign = { ...campaign, id: CampaignId.make(db.nextId("campaigns")), created_at: now }
          campaigns.set(row.id, row)
          return row
        }),
      find: (organizationId, id) => db.atomically(() => campaigns.findOwn(organizationId, id)),
      list: (organizationId, page) => db.atomically(() => campaigns.newestPage(organizationId, page)),
      update: (organizationId, id, patch) =>
        db.atomically(() =>
          campaigns.replaceOwn(organizationId, id, (campaign) => ({ ...campaign, ...patch }))
        ),
      addContacts: (organizationId, id, newContacts, now) =>
        db.atomically(() => {
          if (campaigns.own(organizationId, id) === undefined) return []
          return newContacts.map((contact) => {
            const row: Contact = {
              ...contact,
              id: ContactId.make(db.nextNumber("contacts")),
              campaign_id: id,
              organization_id: organizationId,
              created_at: now
            }
            contacts.set(row.id, row)
            return row
          })
        }),
      listContacts: (organizationId, id, filter, page) =>
        db.atomically(() =>
          Page.slice(
            contacts
              .ownRows(
                organizationId,
                (c) => c.campaign_id === id && (filter.status === undefined || c.status === filter.status)
              )
              .sort((a, b) => a.id - b.id),
            page
          )
        ),
      updateContact: (organizationId, id, patch) =>
        db.atomically(() => contacts.replaceOwn(organizationId, id, (contact) => ({ ...contact, ...patch })))
    }
  })
)
