import { Effect, Layer, Option } from "effect"
import type { Campaign, Contact } from "../campaigns/Campaign.js"
import { CampaignId, ContactId } from "../campaigns/Campaign.js"
import { CampaignStore } from "../campaigns/CampaignStore.js"
import type { OrganizationId } from "../organizations/Organization.js"
import * as Page from "../pagination/Page.js"
import { MemoryDatabaseTag, newestFirst } from "./MemoryDatabase.js"

/** Campaigns and their contacts in memory. */
export const layer: Layer.Layer<CampaignStore, never, MemoryDatabaseTag> = Layer.effect(
  CampaignStore,
  Effect.gen(function* () {
    const db = yield* MemoryDatabaseTag
    const campaigns = db.table<CampaignId, Campaign>("campaigns")
    const contacts = db.table<ContactId, Contact>("contacts")
    const own = (organizationId: OrganizationId, id: CampaignId) => {
      const row = campaigns.get(id)
      return row?.organization_id === organizationId ? row : undefined
    }
    return {
      insert: (campaign, now) =>
        db.atomically(() => {
          const row: Campaign = { ...campaign, id: CampaignId.make(db.nextId("campaigns")), created_at: now }
          campaigns.set(row.id, row)
          return row
        }),
      find: (organizationId, id) => db.atomically(() => Option.fromNullable(own(organizationId, id))),
      list: (organizationId, page) =>
        db.atomically(() =>
          Page.slice(
            newestFirst(
              campaigns.values().filter((c) => c.organization_id === organizationId),
              (c) => c.created_at,
              (c) => c.id
            ),
            page
          )
        ),
      update: (organizationId, id, patch) =>
        db.atomically(() => {
          const current = own(organizationId, id)
          if (current === undefined) return Option.none()
          const next: Campaign = { ...current, ...patch }
          campaigns.set(id, next)
          return Option.some(next)
        }),
      addContacts: (organizationId, id, newContacts, now) =>
        db.atomically(() => {
          if (own(organizationId, id) === undefined) return []
          return newContacts.map((contact) => {
            const row: Contact = {
              ...contact,
              id: ContactId.make(db.nextId("contacts")),
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
              .values()
              .filter(
                (c) =>
                  c.organization_id === organizationId &&
                  c.campaign_id === id &&
                  (filter.status === undefined || c.status === filter.status)
              )
              .sort((a, b) => a.id - b.id),
            page
          )
        ),
      updateContact: (organizationId, id, patch) =>
        db.atomically(() => {
          const current = contacts.get(id)
          if (current?.organization_id !== organizationId) return Option.none()
          const next: Contact = { ...current, ...patch }
          contacts.set(id, next)
          return Option.some(next)
        })
    }
  })
)
