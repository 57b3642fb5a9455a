import { Chunk, Clock, Context, Effect, Either, Layer, Option, Stream } from "effect"
import * as SpanAttributes from "../observability/SpanAttributes.js"
import { AgentArchived, type AgentNotFound } from "../agents/AgentErrors.js"
import type { AgentRef } from "../agents/AgentIds.js"
import { Agents } from "../agents/Agents.js"
import type { OrganizationId } from "../organizations/Organization.js"
import { DoNotCallStore } from "../do-not-call/DoNotCallStore.js"
import { OrganizationStore } from "../organizations/OrganizationStore.js"
import type { Page, PageRequest } from "../pagination/Page.js"
import type { PhoneNumberId } from "../phone-numbers/PhoneNumber.js"
import { PhoneNumberNotFound } from "../phone-numbers/PhoneNumberErrors.js"
import { PhoneNumberStore } from "../phone-numbers/PhoneNumberStore.js"
import { SecureRandom } from "../randomness/SecureRandom.js"
import { QuotaExceeded } from "../quotas/QuotaErrors.js"
import { Quotas } from "../quotas/Quotas.js"
import { Transactions } from "../storage/Transactions.js"
import * as Webhooks from "../webhooks/Webhooks.js"
import { WebhookStore } from "../webhooks/WebhookStore.js"
import type {
  Campaign,
  CampaignId,
  ContactId,
  ContactOrder,
  ContactStatus,
  ReportedContact,
  RetryableOutcome
} from "./Campaign.js"
import * as CampaignAttempts from "./CampaignAttempts.js"
import {
  CampaignNotEditable,
  CampaignNotFound,
  ContactNotFound,
  ContactNotPending,
  type CampaignTransitionNotAllowed,
  TooManyContacts
} from "./CampaignErrors.js"
import * as CampaignLifecycle from "./CampaignLifecycle.js"
import { CampaignStore } from "./CampaignStore.js"
import * as CampaignTally from "./CampaignTally.js"
import * as ContactImport from "./ContactImport.js"
import * as ContactPreflight from "./ContactPreflight.js"
import * as RetryPolicy from "./RetryPolicy.js"
import * as OperationSpans from "../observability/OperationSpans.js"

/** The largest `max_concurrency`; the default is the organization's channels, capped to it. */
export const maxConcurrencyLimit = 1000

/** Report rows read per query while the CSV report streams. */
export const reportStreamBatch = 500

export interface CreateCampaign {
  readonly name: string
  readonly agent: AgentRef | string
  readonly from_phone_number_id?: PhoneNumberId | undefined
  readonly max_concurrency?: number | undefined
  readonly retry?: Partial<RetryPolicy.RetryPolicy> | undefined
  readonly contacts?: ReadonlyArray<ContactImport.ImportRow> | undefined
}

/** What an import did (`POST …/contacts`). */
export interface ImportResult {
  readonly added: number
  readonly duplicates: number
  readonly rejected: ReadonlyArray<ContactImport.RejectedRow>
}

export type CampaignAction = "start" | "pause" | "resume" | "cancel"

/** The reason a canceled campaign's pending contacts are skipped with. */
export const canceledReason = "canceled"

/** Campaigns as the API uses them. Every operation is scoped to the organization. */
export class Campaigns extends Context.Tag("@voice-agent-platform/core/Campaigns")<
  Campaigns,
  {
    readonly create: (
      organizationId: OrganizationId,
      request: CreateCampaign
    ) => Effect.Effect<
      { readonly campaign: Campaign; readonly imported: ImportResult },
      AgentNotFound | AgentArchived | PhoneNumberNotFound | TooManyContacts | QuotaExceeded
    >
    readonly find: (
      organizationId: OrganizationId,
      id: CampaignId
    ) => Effect.Effect<Campaign, CampaignNotFound>
    readonly list: (organizationId: OrganizationId, page: PageRequest) => Effect.Effect<Page<Campaign>>
    readonly addContacts: (
      organizationId: OrganizationId,
      id: CampaignId,
      rows: ReadonlyArray<ContactImport.ImportRow>
    ) => Effect.Effect<ImportResult, CampaignNotFound | CampaignNotEditable | TooManyContacts>
    /**
     * What `addContacts` would do with the rows now, importing nothing (`ContactPreflight`): refused as the
     * import would be (a campaign that takes no contacts, more than the campaign may hold).
     */
    readonly preflightContacts: (
      organizationId: OrganizationId,
      id: CampaignId,
      rows: ReadonlyArray<ContactImport.ImportRow>
    ) => Effect.Effect<
      ContactPreflight.ContactPreflight,
      CampaignNotFound | CampaignNotEditable | TooManyContacts
    >
    readonly removeContact: (
      organizationId: OrganizationId,
      id: CampaignId,
      contactId: ContactId
    ) => Effect.Effect<void, CampaignNotFound | ContactNotFound | ContactNotPending>
    readonly act: (
      organizationId: OrganizationId,
      id: CampaignId,
      action: CampaignAction
    ) => Effect.Effect<Campaign, CampaignNotFound | CampaignTransitionNotAllowed>
    readonly report: (
      organizationId: OrganizationId,
      id: CampaignId,
      filter: { readonly status?: ContactStatus },
      page: PageRequest
    ) => Effect.Effect<
      { readonly campaign: Campaign; readonly page: Page<ReportedContact> },
      CampaignNotFound
    >
    /** Every report row, read a batch at a time as the stream is consumed. */
    readonly reportRows: (
      organizationId: OrganizationId,
      id: CampaignId
    ) => Effect.Effect<Stream.Stream<ReportedContact>, CampaignNotFound>
  }
>() {}

export const layer = Layer.effect(
  Campaigns,
  Effect.gen(function* () {
    const store = yield* CampaignStore
    const agents = yield* Agents
    const organizations = yield* OrganizationStore
    const doNotCall = yield* DoNotCallStore
    const numbers = yield* PhoneNumberStore
    const transactions = yield* Transactions
    const webhookStore = yield* WebhookStore
    const random = yield* SecureRandom
    const quotas = yield* Quotas
    const withPorts = <A, E>(effect: Effect.Effect<A, E, CampaignStore | WebhookStore | SecureRandom>) =>
      effect.pipe(
        Effect.provideService(CampaignStore, store),
        Effect.provideService(WebhookStore, webhookStore),
        Effect.provideService(SecureRandom, random)
      )
    const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

    const found = (id: CampaignId) => (campaign: Option.Option<Campaign>) =>
      Option.match(campaign, {
        onNone: () => Effect.fail(new CampaignNotFound({ campaign_id: id })),
        onSome: (c) => Effect.succeed(c)
      })
    const find = (organizationId: OrganizationId, id: CampaignId) =>
      Effect.flatMap(store.find(organizationId, id), found(id))
    const held = (organizationId: OrganizationId, id: CampaignId) =>
      Effect.flatMap(store.findForUpdate(organizationId, id), found(id))

    /** Imports rows into a campaign held by the transaction; refuses the whole import past the limit. */
    const importInto = (campaign: Campaign, rows: ReadonlyArray<ContactImport.ImportRow>, at: Date) =>
      Effect.gen(function* () {
        const plan = ContactImport.plan(rows)
        const total = CampaignTally.total(campaign.totals.counts)
        if (total + plan.accepted.length > ContactImport.maxContactsPerCampaign) {
          return yield* new TooManyContacts({ limit: ContactImport.maxContactsPerCampaign })
        }
        const { added, duplicates } = yield* store.addContacts(
          campaign.organization_id,
          campaign.id,
          plan.accepted.map(({ phone_number, initial_context }) => ({ phone_number, initial_context })),
          at
        )
        yield* store.tally(
          campaign.organization_id,
          campaign.id,
          CampaignTally.move(null, "pending", added.length)
        )
        return { added: added.length, duplicates: plan.duplicates + duplicates, rejected: plan.rejected }
      })

    const callerId = (organizationId: OrganizationId, id: PhoneNumberId | undefined) =>
      Effect.gen(function* () {
        if (id === undefined) return null
        const number = yield* numbers.find(id)
        if (
          Option.isNone(number) ||
          number.value.organization_id !== organizationId ||
          number.value.status !== "active"
        ) {
          return yield* new PhoneNumberNotFound({ phone_number_id: id })
        }
        return id
      })

    return Campaigns.of({
      create: OperationSpans.fn("Campaigns.create")(function* (organizationId, request) {
        const agent = yield* agents.resolve(organizationId, request.agent)
        if (agent.status === "archived") return yield* new AgentArchived({ agent_id: agent.public_id })
        const from = yield* callerId(organizationId, request.from_phone_number_id)
        const organization = yield* organizations.find(organizationId)
        const channels = Option.match(organization, {
          onNone: () => 1,
          onSome: (o) => o.outbound_channels
        })
        const at = yield* now
        const retry = { ...RetryPolicy.defaults, ...request.retry }
        return yield* transactions.run(
          Effect.gen(function* () {
            const inserted = yield* store.insertWithin(
              {
                organization_id: organizationId,
                agent_id: agent.id,
                name: request.name,
                status: "created",
                from_phone_number_id: from,
                max_concurrency: request.max_concurrency ?? Math.min(channels, maxConcurrencyLimit),
                max_attempts: retry.max_attempts,
                retry_delay_seconds: retry.retry_delay_seconds,
                retry_on: dedupe(retry.retry_on),
                started_at: null,
                ended_at: null
              },
              at,
              quotas.campaigns
            )
            if (Option.isNone(inserted)) {
              return yield* new QuotaExceeded({ resource: "campaigns", limit: quotas.campaigns })
            }
            const campaign = inserted.value
            const imported = yield* importInto(campaign, request.contacts ?? [], at)
            return { campaign: yield* find(organizationId, campaign.id).pipe(Effect.orDie), imported }
          })
        )
      }, SpanAttributes.organization),
      find: OperationSpans.fn("Campaigns.find")(find, SpanAttributes.organizationCampaign),
      list: OperationSpans.fn("Campaigns.list")(store.list, SpanAttributes.organization),
      addContacts: OperationSpans.fn("Campaigns.addContacts")(
        (organizationId, id, rows) =>
          transactions.run(
            Effect.gen(function* () {
              const campaign = yield* held(organizationId, id)
              if (!CampaignLifecycle.acceptsContacts(campaign.status)) {
                return yield* new CampaignNotEditable({ status: campaign.status })
              }
              return yield* importInto(campaign, rows, yield* now)
            })
          ),
        SpanAttributes.organizationCampaign
      ),
      preflightContacts: OperationSpans.fn("Campaigns.preflightContacts")(function* (
        organizationId,
        id,
        rows
      ) {
        const campaign = yield* find(organizationId, id)
        if (!CampaignLifecycle.acceptsContacts(campaign.status)) {
          return yield* new CampaignNotEditable({ status: campaign.status })
        }
        const plan = ContactImport.plan(rows)
        const total = CampaignTally.total(campaign.totals.counts)
        if (total + plan.accepted.length > ContactImport.maxContactsPerCampaign) {
          return yield* new TooManyContacts({ limit: ContactImport.maxContactsPerCampaign })
        }
        const numbers = plan.accepted.map((row) => row.phone_number)
        const [inCampaign, listed] = yield* Effect.all([
          store.numbersAmong(organizationId, id, numbers),
          doNotCall.listedAmong(organizationId, numbers)
        ])
        return ContactPreflight.summarize(rows.length, plan, inCampaign, listed, yield* now)
      }, SpanAttributes.organizationCampaign),
      removeContact: OperationSpans.fn("Campaigns.removeContact")(
        (organizationId, id, contactId) =>
          transactions.run(
            Effect.gen(function* () {
              // The campaign is held first, as the dialer holds it while it claims: the two take turns.
              yield* held(organizationId, id)
              const contact = yield* Effect.flatMap(
                store.findContact(organizationId, id, contactId),
                Option.match({
                  onNone: () => Effect.fail(new ContactNotFound({ contact_id: contactId })),
                  onSome: Effect.succeed
                })
              )
              if (contact.status !== "pending") {
                return yield* new ContactNotPending({ contact_id: contactId, status: contact.status })
              }
              yield* store.removeContact(organizationId, id, contactId)
              yield* store.tally(organizationId, id, CampaignTally.move("pending", null))
            })
          ),
        SpanAttributes.organizationCampaign
      ),
      act: OperationSpans.fn("Campaigns.act")(
        (organizationId, id, action) =>
          transactions.run(
            Effect.gen(function* () {
              const campaign = yield* held(organizationId, id)
              const status = yield* Either.match(CampaignLifecycle.transition(campaign.status, action), {
                onLeft: Effect.fail,
                onRight: Effect.succeed
              })
              const at = yield* now
              yield* store.update(organizationId, id, {
                status,
                ...(action === "start" ? { started_at: at } : {}),
                ...(action === "cancel" ? { ended_at: at } : {})
              })
              if (action === "cancel") {
                const skipped = yield* store.skipPending(organizationId, id, canceledReason)
                yield* store.tally(organizationId, id, CampaignTally.move("pending", "skipped", skipped))
              }
              const moved = yield* find(organizationId, id)
              if (action === "start") {
                yield* withPorts(
                  Webhooks.enqueueCampaign(
                    organizationId,
                    "campaign.started",
                    CampaignAttempts.eventData(moved)
                  )
                )
              }
              // a campaign started (or resumed) with nothing left to call is complete at once
              return action === "start" || action === "resume"
                ? yield* withPorts(CampaignAttempts.tallyAndSettle(moved, CampaignTally.none, at))
                : moved
            })
          ),
        SpanAttributes.organizationCampaign
      ),
      report: OperationSpans.fn("Campaigns.report")(function* (organizationId, id, filter, page) {
        const campaign = yield* find(organizationId, id)
        // the kept counts are the totals: the report never counts rows
        const counts = campaign.totals.counts
        const total = filter.status === undefined ? CampaignTally.total(counts) : counts[filter.status]
        return { campaign, page: yield* store.report(organizationId, id, filter, page, total) }
      }, SpanAttributes.organizationCampaign),
      reportRows: OperationSpans.fn("Campaigns.reportRows")(
        (organizationId, id) =>
          Effect.map(find(organizationId, id), () =>
            Stream.paginateChunkEffect(null as ContactOrder | null, (after) =>
              Effect.map(store.reportAfter(organizationId, id, after, reportStreamBatch), (rows) => {
                const last = rows[rows.length - 1]
                const next: Option.Option<ContactOrder | null> =
                  rows.length < reportStreamBatch || last === undefined
                    ? Option.none()
                    : Option.some(last.contact.added_order)
                return [Chunk.fromIterable(rows), next] as const
              })
            )
          ),
        SpanAttributes.organizationCampaign
      )
    })
  })
)

const dedupe = (outcomes: ReadonlyArray<RetryableOutcome>): ReadonlyArray<RetryableOutcome> =>
  Array.from(new Set(outcomes))
