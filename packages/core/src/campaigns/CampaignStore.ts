import { Context, type Effect, type Option } from "effect"
import type { OrganizationId } from "../organizations/Organization.js"
import type { Page, PageRequest } from "../pagination/Page.js"
import type { Campaign, CampaignId, Contact, ContactId, ContactStatus } from "./Campaign.js"

export type NewCampaign = Omit<Campaign, "id" | "created_at">
export type CampaignPatch = Partial<Pick<Campaign, "name" | "status" | "started_at" | "ended_at">>
export type NewContact = Omit<Contact, "id" | "created_at" | "campaign_id" | "organization_id">
export type ContactPatch = Partial<
  Pick<Contact, "status" | "attempts" | "last_run_id" | "outcome" | "next_attempt_at">
>

/** Storage of campaigns and their contacts. */
export class CampaignStore extends Context.Tag("@voice-agent-platform/core/CampaignStore")<
  CampaignStore,
  {
    readonly insert: (campaign: NewCampaign, now: Date) => Effect.Effect<Campaign>
    readonly find: (organizationId: OrganizationId, id: CampaignId) => Effect.Effect<Option.Option<Campaign>>
    readonly list: (organizationId: OrganizationId, page: PageRequest) => Effect.Effect<Page<Campaign>>
    readonly update: (
      organizationId: OrganizationId,
      id: CampaignId,
      patch: CampaignPatch
    ) => Effect.Effect<Option.Option<Campaign>>
    readonly addContacts: (
      organizationId: OrganizationId,
      id: CampaignId,
      contacts: ReadonlyArray<NewContact>,
      now: Date
    ) => Effect.Effect<ReadonlyArray<Contact>>
    /** Contacts in the order they were added. */
    readonly listContacts: (
      organizationId: OrganizationId,
      id: CampaignId,
      filter: { readonly status?: ContactStatus },
      page: PageRequest
    ) => Effect.Effect<Page<Contact>>
    readonly updateContact: (
      organizationId: OrganizationId,
      id: ContactId,
      patch: ContactPatch
    ) => Effect.Effect<Option.Option<Contact>>
  }
>() {}
