import { HttpServerResponse } from "@effect/platform"
import type { Campaign } from "@voice-agent-platform/core"
import { AgentStore, Campaigns, CsvWriter, PhoneNumber, OperationSpans } from "@voice-agent-platform/core"
import { Effect, Option, Stream } from "effect"
import { Api } from "@voice-agent-platform/contract/Api.js"
import * as CoreErrors from "../errors/CoreErrors.js"
import { CurrentOrganization } from "../middleware/Authentication.js"
import * as MediaType from "@voice-agent-platform/contract/edge/MediaType.js"
import * as CampaignResponses from "./CampaignResponses.js"
import * as ContactsBody from "./ContactsBody.js"
import * as CapturedGroups from "../direct/CapturedGroups.js"

const encoder = new TextEncoder()

/** Handlers of the campaigns group. */
export const CampaignsHandlers = CapturedGroups.group(Api, "campaigns", (handlers) =>
  Effect.gen(function* () {
    const campaigns = yield* Campaigns.Campaigns
    const agents = yield* AgentStore.AgentStore

    /** The public id of each campaign's agent, one lookup per agent. */
    const render = (
      organizationId: Campaign.Campaign["organization_id"],
      list: ReadonlyArray<Campaign.Campaign>
    ) =>
      Effect.gen(function* () {
        const ids = new Map<number, string>()
        for (const id of new Set(list.map((c) => c.agent_id))) {
          const agent = yield* agents.find(organizationId, { _tag: "Number", id })
          ids.set(id, Option.match(agent, { onNone: () => String(id), onSome: (a) => a.public_id }))
        }
        return list.map((c) => CampaignResponses.campaignResponse(c, ids.get(c.agent_id)!))
      })
    const one = (campaign: Campaign.Campaign) =>
      Effect.map(render(campaign.organization_id, [campaign]), (rendered) => rendered[0]!)

    /** A status action's handler, traced as `Campaigns.<action>`. */
    const act = (action: Campaigns.CampaignAction) =>
      OperationSpans.fn(`Campaigns.${action}`)(function* ({
        path
      }: {
        readonly path: { readonly campaign_id: number }
      }) {
        const organization = yield* CurrentOrganization
        return yield* one(
          yield* campaigns.act(organization.id, path.campaign_id as Campaign.CampaignId, action)
        )
      }, Effect.mapError(CoreErrors.toHttp))

    return handlers
      .handle(
        "create",
        OperationSpans.fn("Campaigns.create")(function* ({ payload }) {
          const organization = yield* CurrentOrganization
          const { campaign, imported } = yield* campaigns.create(organization.id, {
            name: payload.name,
            agent: String(payload.agent_id),
            from_phone_number_id:
              payload.from_phone_number_id === undefined
                ? undefined
                : PhoneNumber.PhoneNumberId.make(payload.from_phone_number_id),
            max_concurrency: payload.max_concurrency,
            retry: payload.retry,
            contacts: (payload.contacts ?? []).map((contact, i) => ({
              row: i + 1,
              phone_number: contact.phone_number,
              initial_context: contact.initial_context ?? {}
            }))
          })
          return { ...(yield* one(campaign)), contacts: CampaignResponses.importResponse(imported) }
        }, Effect.mapError(CoreErrors.toHttp))
      )
      .handleRaw(
        "addContacts",
        OperationSpans.fn("Campaigns.addContacts")(function* ({ path, request }) {
          const organization = yield* CurrentOrganization
          const id = path.campaign_id as Campaign.CampaignId
          // An unknown campaign is 404 before a byte of the body is read.
          yield* Effect.mapError(campaigns.find(organization.id, id), CoreErrors.toHttp)
          const rows = yield* ContactsBody.read(request)
          const result = yield* Effect.mapError(
            campaigns.addContacts(organization.id, id, rows),
            CoreErrors.toHttp
          )
          return CampaignResponses.importResponse(result)
        })
      )
      .handleRaw(
        "preflightContacts",
        OperationSpans.fn("Campaigns.preflightContacts")(function* ({ path, request }) {
          const organization = yield* CurrentOrganization
          const id = path.campaign_id as Campaign.CampaignId
          // An unknown campaign is 404 before a byte of the body is read, as for the import.
          yield* Effect.mapError(campaigns.find(organization.id, id), CoreErrors.toHttp)
          const rows = yield* ContactsBody.read(request)
          return CampaignResponses.preflightResponse(
            yield* Effect.mapError(campaigns.preflightContacts(organization.id, id, rows), CoreErrors.toHttp)
          )
        })
      )
      .handle(
        "removeContact",
        OperationSpans.fn("Campaigns.removeContact")(function* ({ path }) {
          const organization = yield* CurrentOrganization
          yield* campaigns.removeContact(
            organization.id,
            path.campaign_id as Campaign.CampaignId,
            path.contact_id as Campaign.ContactId
          )
        }, Effect.mapError(CoreErrors.toHttp))
      )
      .handle(
        "list",
        OperationSpans.fn("Campaigns.list")(function* ({ urlParams }) {
          const organization = yield* CurrentOrganization
          const page = yield* campaigns.list(organization.id, urlParams)
          return { ...page, items: yield* render(organization.id, page.items) }
        })
      )
      .handle(
        "get",
        OperationSpans.fn("Campaigns.get")(function* ({ path }) {
          const organization = yield* CurrentOrganization
          return yield* one(yield* campaigns.find(organization.id, path.campaign_id as Campaign.CampaignId))
        }, Effect.mapError(CoreErrors.toHttp))
      )
      .handle("start", act("start"))
      .handle("pause", act("pause"))
      .handle("resume", act("resume"))
      .handle("cancel", act("cancel"))
      .handle(
        "report",
        OperationSpans.fn("Campaigns.report")(function* ({ path, urlParams, request }) {
          const organization = yield* CurrentOrganization
          const id = path.campaign_id as Campaign.CampaignId
          if (MediaType.accepts(request.headers["accept"], "text/csv")) {
            const rows = yield* campaigns.reportRows(organization.id, id)
            const header = Stream.make(CsvWriter.record(CampaignResponses.csvColumns))
            const body = Stream.concat(header, Stream.map(rows, CampaignResponses.csvRecord)).pipe(
              Stream.map((text) => encoder.encode(text))
            )
            return HttpServerResponse.stream(body, {
              contentType: "text/csv; charset=utf-8",
              headers: { "content-disposition": `attachment; filename="campaign-${id}-report.csv"` }
            })
          }
          const filter = urlParams.status === undefined ? {} : { status: urlParams.status }
          const { campaign, page } = yield* campaigns.report(organization.id, id, filter, {
            page: urlParams.page,
            limit: urlParams.limit
          })
          return {
            campaign_id: campaign.id,
            status: campaign.status,
            summary: CampaignResponses.summary(campaign),
            ...page,
            items: page.items.map(CampaignResponses.reportItem)
          }
        }, Effect.mapError(CoreErrors.toHttp))
      )
  })
)
