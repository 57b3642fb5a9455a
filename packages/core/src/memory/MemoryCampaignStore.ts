import { Clock, Effect, Layer, Option } from "effect"
import type { Campaign, Contact, ReportedContact } from "../campaigns/Campaign.js"
import { CampaignId, ContactId, ContactOrder } from "../campaigns/Campaign.js"
import { CampaignStore, type NewCampaign } from "../campaigns/CampaignStore.js"
import * as CampaignLifecycle from "../campaigns/CampaignLifecycle.js"
import * as CampaignTally from "../campaigns/CampaignTally.js"
import type { TallyDelta } from "../campaigns/CampaignTally.js"
import type { OrganizationId } from "../organizations/Organization.js"
import * as Page from "../pagination/Page.js"
import { MinorUnits } from "../money/Money.js"
import type { Run } from "../runs/Run.js"
import type { RunId } from "../runs/RunId.js"
import { MemoryDatabase } from "./MemoryDatabase.js"
import { byCreation, organizationTable } from "./OrganizationTable.js"

const dueAt = (contact: Contact, now: Date) =>
  contact.next_attempt_at === null || contact.next_attempt_at.getTime() <= now.getTime()

const byOrderAdded = (a: Contact, b: Contact) => a.added_order - b.added_order

/**
 * Campaigns and their contacts in memory. Contact ids are drawn at random, as SQL's are; contacts are
 * kept in the order they were added by `added_order`, counted apart and never shown.
 */
export const layer: Layer.Layer<CampaignStore, never, MemoryDatabase> = Layer.effect(
  CampaignStore,
  Effect.gen(function* () {
    const db = yield* MemoryDatabase
    const campaigns = organizationTable(db.table<CampaignId, Campaign>("campaigns"), byCreation)
    const contacts = organizationTable(db.table<ContactId, Contact>("contacts"), byCreation)
    const runs = db.table<RunId, Run>("runs")
    /** When each campaign was last visited by a dialer round (a column in SQL). */
    const lastVisited = new Map<CampaignId, number>()
    /** A running campaign a round has work for: a pending contact due, or nothing left to dial. */
    const toVisit = (campaign: Campaign, now: Date) =>
      (campaign.totals.counts.pending === 0 && campaign.totals.counts.in_progress === 0) ||
      contacts.ownRows(
        campaign.organization_id,
        (c) => c.campaign_id === campaign.id && c.status === "pending" && dueAt(c, now)
      ).length > 0

    const ofCampaign = (
      organizationId: OrganizationId,
      id: CampaignId,
      keep: (c: Contact) => boolean = () => true
    ) => contacts.ownRows(organizationId, (c) => c.campaign_id === id && keep(c)).sort(byOrderAdded)

    const reported = (contact: Contact): ReportedContact => {
      const run = contact.last_run_id === null ? undefined : runs.get(contact.last_run_id)
      return {
        contact,
        run:
          run === undefined || run.organization_id !== contact.organization_id
            ? null
            : {
                status: run.status,
                disposition: run.disposition,
                duration_seconds: run.duration_seconds,
                gathered_context: run.gathered_context
              }
      }
    }

    const insertRow = (campaign: NewCampaign, now: Date): Campaign => {
      const row: Campaign = {
        ...campaign,
        id: CampaignId.make(db.nextId("campaigns")),
        totals: {
          counts: CampaignTally.zeroCounts,
          attempts: 0,
          duration_seconds: 0,
          cost: MinorUnits.make(0)
        },
        created_at: now
      }
      campaigns.set(row.id, row)
      return row
    }

    const addTally = (organizationId: OrganizationId, id: CampaignId, delta: TallyDelta) => {
      campaigns.replaceOwn(organizationId, id, (campaign) => {
        const t = campaign.totals
        const c = t.counts
        return {
          ...campaign,
          totals: {
            counts: {
              pending: c.pending + delta.counts.pending,
              in_progress: c.in_progress + delta.counts.in_progress,
              completed: c.completed + delta.counts.completed,
              failed: c.failed + delta.counts.failed,
              skipped: c.skipped + delta.counts.skipped
            },
            attempts: t.attempts + delta.attempts,
            duration_seconds: t.duration_seconds + delta.duration_seconds,
            cost: MinorUnits.make(t.cost + delta.cost)
          }
        }
      })
    }

    return {
      insert: (campaign, now) => db.atomically(() => insertRow(campaign, now)),
      find: (organizationId, id) => db.atomically(() => campaigns.findOwn(organizationId, id)),
      findForUpdate: (organizationId, id) => db.atomically(() => campaigns.findOwn(organizationId, id)),
      findForClaim: (organizationId, id) => db.atomically(() => campaigns.findOwn(organizationId, id)),
      list: (organizationId, page) => db.atomically(() => campaigns.newestPage(organizationId, page)),
      update: (organizationId, id, patch) =>
        db.atomically(() =>
          campaigns.replaceOwn(organizationId, id, (campaign) => ({ ...campaign, ...patch }))
        ),
      tally: (organizationId, id, delta) => db.atomically(() => addTally(organizationId, id, delta)),
      numbersAmong: (organizationId, id, phoneNumbers) =>
        db.atomically(() => {
          const known = new Set(ofCampaign(organizationId, id).map((c) => c.phone_number))
          return new Set(phoneNumbers.filter((number) => known.has(number)))
        }),
      addContacts: (organizationId, id, newContacts, now) =>
        db.atomically(() => {
          if (campaigns.own(organizationId, id) === undefined) return { added: [], duplicates: 0 }
          const known = new Set(ofCampaign(organizationId, id).map((c) => c.phone_number))
          const added: Array<Contact> = []
          let duplicates = 0
          for (const contact of newContacts) {
            if (known.has(contact.phone_number)) {
              duplicates++
              continue
            }
            known.add(contact.phone_number)
            const row: Contact = {
              ...contact,
              id: ContactId.make(db.nextId("contacts")),
              added_order: ContactOrder.make(db.nextNumber("contacts")),
              campaign_id: id,
              organization_id: organizationId,
              status: "pending",
              attempts: 0,
              last_run_id: null,
              outcome: null,
              next_attempt_at: null,
              lease_owner: null,
              lease_expires_at: null,
              created_at: now
            }
            contacts.set(row.id, row)
            added.push(row)
          }
          return { added, duplicates }
        }),
      findContact: (organizationId, campaignId, id) =>
        db.atomically(() =>
          Option.filter(contacts.findOwn(organizationId, id), (c) => c.campaign_id === campaignId)
        ),
      findContactByRunForUpdate: (organizationId, runId) =>
        db.atomically(() =>
          Option.fromNullable(contacts.ownRows(organizationId, (c) => c.last_run_id === runId)[0])
        ),
      findAttemptsForEnd: (runs) =>
        db.atomically(() => {
          const runIds = new Map<OrganizationId, Set<number>>()
          for (const run of runs) {
            const ids = runIds.get(run.organization_id) ?? new Set<number>()
            runIds.set(run.organization_id, ids.add(run.workflow_run_id))
          }
          return Array.from(runIds, ([organizationId, ids]) =>
            contacts
              .ownRows(organizationId, (c) => c.last_run_id !== null && ids.has(c.last_run_id))
              .flatMap((contact) =>
                Option.match(campaigns.findOwn(organizationId, contact.campaign_id), {
                  onNone: () => [],
                  onSome: ({ totals: _, ...campaign }) => [{ contact, campaign }]
                })
              )
          ).flat()
        }),
      endAttempts: (ends) =>
        db.atomically(() => {
          for (const end of ends) {
            contacts.replaceOwn(end.organization_id, end.contact_id, (contact) => ({
              ...contact,
              ...end.move,
              lease_owner: null,
              lease_expires_at: null
            }))
            addTally(end.organization_id, end.campaign_id, end.delta)
          }
        }),
      listContacts: (organizationId, id, filter, page) =>
        db.atomically(() =>
          Page.slice(
            ofCampaign(organizationId, id, (c) => filter.status === undefined || c.status === filter.status),
            page
          )
        ),
      updateContact: (organizationId, id, patch) =>
        db.atomically(() => contacts.replaceOwn(organizationId, id, (contact) => ({ ...contact, ...patch }))),
      startAttempts: (organizationId, attempts, owner, leaseSeconds) =>
        Effect.flatMap(Clock.currentTimeMillis, (ms) => {
          const leaseExpiresAt = new Date(ms + leaseSeconds * 1000)
          return db.atomically(() => {
            for (const { id, runId } of attempts) {
              contacts.replaceOwn(organizationId, id, (contact) => ({
                ...contact,
                status: "in_progress",
                attempts: contact.attempts + 1,
                last_run_id: runId,
                outcome: null,
                next_attempt_at: null,
                lease_owner: owner,
                lease_expires_at: leaseExpiresAt
              }))
            }
          })
        }),
      stillQueued: (organizationId, campaignId, runIds) =>
        db.atomically(() => {
          const running = campaigns.own(organizationId, campaignId)?.status === "running"
          return new Set(
            running
              ? runIds.filter((id) => {
                  const run = runs.get(id)
                  return (
                    run !== undefined &&
                    run.organization_id === organizationId &&
                    run.campaign_id === campaignId &&
                    run.status === "queued"
                  )
                })
              : []
          )
        }),
      removeContact: (organizationId, campaignId, id) =>
        db.atomically(() =>
          contacts.own(organizationId, id)?.campaign_id === campaignId
            ? contacts.removeOwn(organizationId, id)
            : Option.none()
        ),
      skipPending: (organizationId, id, outcome) =>
        db.atomically(() => {
          const pending = ofCampaign(organizationId, id, (c) => c.status === "pending")
          for (const contact of pending) {
            contacts.set(contact.id, { ...contact, status: "skipped", outcome, next_attempt_at: null })
          }
          return pending.length
        }),
      report: (organizationId, id, filter, page, totalCount) =>
        db.atomically(() => {
          const keep = (c: Contact) => filter.status === undefined || c.status === filter.status
          const items = ofCampaign(organizationId, id, keep)
            .slice(Page.offset(page), Page.offset(page) + page.limit)
            .map(reported)
          return Page.make(items, totalCount, page)
        }),
      reportAfter: (organizationId, id, after, limit) =>
        db.atomically(() =>
          ofCampaign(organizationId, id, (c) => after === null || c.added_order > after)
            .slice(0, limit)
            .map(reported)
        ),
      forgetRun: (organizationId, runId) =>
        db.atomically(() => {
          for (const contact of contacts.ownRows(organizationId, (c) => c.last_run_id === runId)) {
            contacts.set(contact.id, { ...contact, last_run_id: null })
          }
        }),
      running: (now, limit, perOrganization) =>
        db.atomically(() => {
          const visitedAt = (c: Campaign) => lastVisited.get(c.id) ?? -Infinity
          const perOrg = new Map<OrganizationId, number>()
          const picked = campaigns
            .values()
            .filter((c) => c.status === "running" && toVisit(c, now))
            .sort((a, b) => visitedAt(a) - visitedAt(b) || a.id - b.id)
            .filter((c) => {
              const nth = (perOrg.get(c.organization_id) ?? 0) + 1
              perOrg.set(c.organization_id, nth)
              return nth <= perOrganization
            })
            .slice(0, limit)
          for (const c of picked) lastVisited.set(c.id, now.getTime())
          return picked.sort((a, b) => a.id - b.id)
        }),
      claimDue: (organizationId, id, now, limit) =>
        db.atomically(() =>
          ofCampaign(organizationId, id, (c) => c.status === "pending" && dueAt(c, now))
            .sort(
              (a, b) =>
                (a.next_attempt_at?.getTime() ?? 0) - (b.next_attempt_at?.getTime() ?? 0) ||
                byOrderAdded(a, b)
            )
            .slice(0, limit)
        ),
      renewLeases: (owner, seconds) =>
        Effect.flatMap(Clock.currentTimeMillis, (ms) => {
          const until = new Date(ms + seconds * 1000)
          return db.atomically(() => {
            const held = contacts
              .values()
              .filter((c) => c.status === "in_progress" && c.lease_owner === owner)
            for (const contact of held) contacts.set(contact.id, { ...contact, lease_expires_at: until })
            return held.length
          })
        }),
      expiredLeases: (limit) =>
        Effect.flatMap(Clock.currentTimeMillis, (now) =>
          db.atomically(() =>
            contacts
              .values()
              .filter(
                (c) =>
                  c.status === "in_progress" &&
                  c.lease_expires_at !== null &&
                  c.lease_expires_at.getTime() <= now
              )
              .sort(
                (a, b) => a.lease_expires_at!.getTime() - b.lease_expires_at!.getTime() || byOrderAdded(a, b)
              )
              .slice(0, limit)
          )
        ),
      insertWithin: (campaign, now, limit) =>
        db.atomically(() =>
          campaigns.ownRows(campaign.organization_id, (c) => !CampaignLifecycle.isFinal(c.status)).length >=
          limit
            ? Option.none()
            : Option.some(insertRow(campaign, now))
        )
    }
  })
)
