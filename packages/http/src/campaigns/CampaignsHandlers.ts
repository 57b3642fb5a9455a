import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import type {
  AgentErrors,
  Campaign,
  CampaignErrors,
  PhoneNumberErrors,
  QuotaErrors
} from "@voice-agent-platform/core"
import { AgentStore, Campaigns, CsvWriter, PhoneNumber } from "@voice-agent-platform/core"
import { Effect, Option, Stream } from "effect"
import { Api } from "@voice-agent-platform/contract/Api.js"
import { Conflict, NotFound, ValidationError } from "@voice-agent-platform/contract/errors/ApiErrors.js"
import { CurrentOrganization } from "../middleware/Authentication.js"
import * as MediaType from "@voice-agent-platform/contract/edge/MediaType.js"
import * as CampaignResponses from "./CampaignResponses.js"
import * as ContactsBody from "./ContactsBody.js"

type CampaignError =
  | CampaignErrors.CampaignNotFound
  | CampaignErrors.ContactNotFound
  | CampaignErrors.CampaignTransitionNotAllowed
  | CampaignErrors.CampaignNotEditable
  | CampaignErrors.ContactNotPending
  | CampaignErrors.TooManyContacts
  | AgentErrors.AgentNotFound
  | AgentErrors.AgentArchived
  | PhoneNumberErrors.PhoneNumberNotFound
  | QuotaErrors.QuotaExceeded

/** Campaign failures as HTTP answers: 404, 409 or 422. */
const toHttp = (error: CampaignError): NotFound | Conflict | ValidationError => {
  switch (error._tag) {
    case "CampaignNotFound":
    case "ContactNotFound":
    case "AgentNotFound":
    case "PhoneNumberNotFound":
      return new NotFound({ detail: error.message })
    case "CampaignTransitionNotAllowed":
    case "CampaignNotEditable":
    case "ContactNotPending":
    case "AgentArchived":
    case "QuotaExceeded":
      return new Conflict({ detail: error.message })
    case "TooManyContacts":
      return new ValidationError({
        detail: [{ loc: ["body", "contacts"], msg: error.message, type: "value_error.too_many_contacts" }]
      })
  }
}

/** Whether `text/csv` is one of the media ranges accepted, with a quality above 0 (`q=0`: not wanted). */
const wantsCsv = (accept: string | undefined) =>
  accept !== undefined &&
  accept.split(",").some((range) => {
    if (MediaType.essence(range) !== "text/csv") return false
    const quality = range
      .split(";")
      .slice(1)
      .map((parameter) => parameter.trim().toLowerCase())
      .find((parameter) => parameter.startsWith("q="))
    return quality === undefined || !(Number(quality.slice(2)) <= 0)
  })

const encoder = new TextEncoder()

/** Handlers of the campaigns group. */
export const CampaignsHandlers = HttpApiBuilder.group(Api, "campaigns", (handlers) =>
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

    const act =
      (action: Campaigns.CampaignAction) =>
      ({ path }: { readonly path: { readonly campaign_id: number } }) =>
        Effect.gen(function* () {
          const organization = yield* CurrentOrganization
          return yield* one(
            yield* campaigns.act(organization.id, path.campaign_id as Campaign.CampaignId, action)
          )
        }).pipe(Effect.mapError(toHttp))

    return handlers
      .handle("create", ({ payload }) =>
        Effect.gen(function* () {
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
        }).pipe(Effect.mapError(toHttp))
      )
      .handleRaw("addContacts", ({ path, request }) =>
        Effect.gen(function* () {
          const organization = yield* CurrentOrganization
          const id = path.campaign_id as Campaign.CampaignId
          // An unknown campaign is 404 before a byte of the body is read.
          yield* Effect.mapError(campaigns.find(organization.id, id), toHttp)
          const rows = yield* ContactsBody.read(request)
          const result = yield* Effect.mapError(campaigns.addContacts(organization.id, id, rows), toHttp)
          return CampaignResponses.importResponse(result)
        })
      )
      .handle("removeContact", ({ path }) =>
        Effect.gen(function* () {
          const organization = yield* CurrentOrganization
          yield* campaigns.removeContact(
            organization.id,
            path.campaign_id as Campaign.CampaignId,
            path.contact_id as Campaign.ContactId
          )
        }).pipe(Effect.mapError(toHttp))
      )
      .handle("list", ({ urlParams }) =>
        Effect.gen(function* () {
          const organization = yield* CurrentOrganization
          const page = yield* campaigns.list(organization.id, urlParams)
          return { ...page, items: yield* render(organization.id, page.items) }
        })
      )
      .handle("get", ({ path }) =>
        Effect.gen(function* () {
          const organization = yield* CurrentOrganization
          return yield* one(yield* campaigns.find(organization.id, path.campaign_id as Campaign.CampaignId))
        }).pipe(Effect.mapError(toHttp))
      )
      .handle("start", act("start"))
      .handle("pause", act("pause"))
      .handle("resume", act("resume"))
      .handle("cancel", act("cancel"))
      .handle("report", ({ path, urlParams, request }) =>
        Effect.gen(function* () {
          const organization = yield* CurrentOrganization
          const id = path.campaign_id as Campaign.CampaignId
          if (wantsCsv(request.headers["accept"])) {
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
        }).pipe(Effect.mapError(toHttp))
      )
  })
)
