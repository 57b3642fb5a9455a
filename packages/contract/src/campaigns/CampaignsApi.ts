import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, Multipart, OpenApi } from "@effect/platform"
import * as Campaign from "@voice-agent-platform/core/campaigns/Campaign.js"
import * as ContactImport from "@voice-agent-platform/core/campaigns/ContactImport.js"
import { Schema } from "effect"
import { Conflict, NotFound } from "../errors/ApiErrors.js"
import * as BodyPolicy from "../edge/BodyPolicy.js"
import { Authentication } from "../middleware/Authentication.js"
import { IntId } from "../shared/Ids.js"
import { JsonObject, strict } from "../shared/Json.js"
import { PageOf, PageParams, PageQuery } from "../shared/Pagination.js"
import { Timestamp } from "../shared/Timestamp.js"

/** The largest contacts body: 10,000 contacts with a modest context each. */
export const maxContactsBodyBytes = 8 * 1024 * 1024

const Money = Schema.Struct({ amount: Schema.Number, currency: Schema.String })

export const RetryBody = Schema.Struct({
  max_attempts: Schema.Int.pipe(Schema.between(1, 10)),
  retry_delay_seconds: Schema.Int.pipe(Schema.between(0, 604800)),
  retry_on: Schema.Array(Campaign.RetryableOutcome)
}).annotations({ identifier: "CampaignRetry" })

export const CampaignCounts = Schema.Struct({
  total: Schema.Int,
  pending: Schema.Int,
  in_progress: Schema.Int,
  completed: Schema.Int,
  failed: Schema.Int,
  skipped: Schema.Int
}).annotations({ identifier: "CampaignCounts" })

/** A campaign as the API shows it: `agent_id` is its agent's public id, `workflow_id` its number. */
export const CampaignResponse = Schema.Struct({
  campaign_id: Schema.Int,
  name: Schema.String,
  agent_id: Schema.String,
  workflow_id: Schema.Int,
  from_phone_number_id: Schema.NullOr(Schema.Int),
  status: Campaign.CampaignStatus,
  max_concurrency: Schema.Int,
  retry: RetryBody,
  counts: CampaignCounts,
  created_at: Timestamp,
  started_at: Schema.NullOr(Timestamp),
  completed_at: Schema.NullOr(Timestamp)
}).annotations({ identifier: "Campaign" })

export const ContactInput = Schema.Struct({
  phone_number: Schema.String.pipe(Schema.maxLength(64)).annotations({
    description: "In international form; normalised to E.164. An invalid number is reported in `rejected`."
  }),
  initial_context: Schema.optionalWith(Schema.NullOr(JsonObject), { exact: true })
}).annotations({ identifier: "CampaignContactInput" })

const Contacts = Schema.Array(ContactInput).pipe(Schema.maxItems(ContactImport.maxContactsPerRequest))

/** `POST /campaigns`. */
export const CreateCampaignRequest = strict(
  Schema.Struct({
    name: Schema.Trim.pipe(Schema.minLength(1), Schema.maxLength(255)),
    agent_id: Schema.Union(Schema.String, Schema.Int).annotations({
      description: "The agent's public id (agent_...) or its number"
    }),
    from_phone_number_id: Schema.optionalWith(Schema.Int.pipe(Schema.positive()), { exact: true }),
    max_concurrency: Schema.optionalWith(Schema.Int.pipe(Schema.between(1, 1000)), {
      exact: true
    }).annotations({
      description: "The most calls of the campaign at once; default the organization's outbound channels"
    }),
    retry: Schema.optionalWith(
      strict(
        Schema.Struct({
          max_attempts: Schema.optionalWith(RetryBody.fields.max_attempts, { exact: true }),
          retry_delay_seconds: Schema.optionalWith(RetryBody.fields.retry_delay_seconds, { exact: true }),
          retry_on: Schema.optionalWith(RetryBody.fields.retry_on, { exact: true })
        })
      ),
      { exact: true }
    ).annotations({
      description: "Defaults: max_attempts 1, retry_delay_seconds 3600, retry_on busy, no_answer and failed"
    }),
    contacts: Schema.optionalWith(Contacts, { exact: true })
  }).annotations({ identifier: "CreateCampaignRequest" })
)

/** `POST /campaigns/{id}/contacts` as JSON. */
export const AddContactsJson = strict(
  Schema.Struct({ contacts: Contacts }).annotations({ identifier: "AddCampaignContactsRequest" })
)

/** The same as a form: one CSV file. */
export const AddContactsForm = HttpApiSchema.Multipart(
  Schema.Struct({
    file: Multipart.SingleFileSchema.annotations({
      description:
        "A CSV file (RFC 4180, UTF-8) whose header has `phone_number`; other columns go to initial_context"
    })
  }).annotations({ identifier: "AddCampaignContactsForm" })
)

/** The same as the CSV text itself. */
export const AddContactsCsv = Schema.String.pipe(
  HttpApiSchema.withEncoding({ kind: "Text", contentType: "text/csv" })
)

export const RejectedRow = Schema.Struct({
  row: Schema.Int,
  phone_number: Schema.String,
  detail: Schema.String
}).annotations({ identifier: "RejectedContact" })

export const ImportResponse = Schema.Struct({
  added: Schema.Int,
  duplicates: Schema.Int,
  rejected: Schema.Array(RejectedRow)
}).annotations({ identifier: "CampaignContactsImport" })

/** `POST /campaigns/{id}/contacts/preflight`: what the import would do; nothing is imported. */
export const ContactPreflightResponse = Schema.Struct({
  rows: Schema.Int.annotations({
    description: "Rows read (a CSV file's records after its header, blank lines left out)"
  }),
  valid: Schema.Int.annotations({ description: "Rows with a valid number: `would_add` + `duplicates`" }),
  invalid: Schema.Array(RejectedRow).annotations({
    description: "The rows the import would skip, each with its 1-based row, its number as given and why"
  }),
  duplicates: Schema.Int.annotations({
    description: "Valid rows whose number repeats an earlier row or is already in the campaign"
  }),
  do_not_call: Schema.Int.annotations({
    description:
      "Of the contacts to add, those on the organization's Do not call list (the dialer skips them)"
  }),
  outside_calling_hours_now: Schema.Int.annotations({
    description:
      "Of the contacts to add and not on the list, those whose local time is outside calling hours at this moment (the dialer waits for their window)"
  }),
  would_add: Schema.Int.annotations({ description: "The contacts the import would add now" })
}).annotations({ identifier: "CampaignContactsPreflight" })

export const CreateCampaignResponse = Schema.Struct({
  ...CampaignResponse.fields,
  contacts: ImportResponse
}).annotations({ identifier: "CreatedCampaign" })

export const ReportSummary = Schema.Struct({
  total: Schema.Int,
  pending: Schema.Int,
  in_progress: Schema.Int,
  completed: Schema.Int,
  failed: Schema.Int,
  skipped: Schema.Int,
  attempts: Schema.Int,
  duration_seconds: Schema.Int,
  cost: Money
}).annotations({ identifier: "CampaignReportSummary" })

export const ReportItem = Schema.Struct({
  contact_id: Schema.Int,
  phone_number: Schema.String,
  status: Campaign.ContactStatus,
  attempts: Schema.Int,
  last_run_id: Schema.NullOr(Schema.Int),
  last_run_status: Schema.NullOr(Schema.String),
  disposition: Schema.NullOr(Schema.String),
  duration_seconds: Schema.NullOr(Schema.Int),
  gathered_context: Schema.NullOr(JsonObject),
  last_error: Schema.NullOr(Schema.String),
  next_attempt_at: Schema.NullOr(Timestamp)
}).annotations({ identifier: "CampaignReportItem" })

export const ReportResponse = Schema.Struct({
  campaign_id: Schema.Int,
  status: Campaign.CampaignStatus,
  summary: ReportSummary,
  items: Schema.Array(ReportItem),
  total_count: Schema.Int,
  total_pages: Schema.Int,
  page: Schema.Int,
  limit: Schema.Int
}).annotations({ identifier: "CampaignReport" })

/** The report as CSV: a header and one row per contact, every contact of the campaign. */
export const ReportCsv = Schema.String.pipe(
  HttpApiSchema.withEncoding({ kind: "Text", contentType: "text/csv" })
)

const campaignPath = Schema.Struct({ campaign_id: IntId })
const contactPath = Schema.Struct({ campaign_id: IntId, contact_id: IntId })

const transition = <Name extends "start" | "pause" | "resume" | "cancel">(
  name: Name,
  summary: string,
  description: string
) =>
  HttpApiEndpoint.post(name, `/campaigns/:campaign_id/${name}`)
    .setPath(campaignPath)
    .addSuccess(CampaignResponse)
    .addError(NotFound)
    .addError(Conflict)
    .annotateContext(
      OpenApi.annotations({
        summary: summary,
        description: `${description} A transition not allowed from the current status answers 409.`
      })
    )

/** Outbound campaigns: one agent calling a list of contacts, within every calling rule. */
export class CampaignsApi extends HttpApiGroup.make("campaigns")
  .add(
    HttpApiEndpoint.post("create", "/campaigns")
      .setPayload(CreateCampaignRequest)
      .addSuccess(CreateCampaignResponse)
      .addError(NotFound)
      .addError(Conflict)
      .annotate(BodyPolicy.MaxBodyBytes, maxContactsBodyBytes)
      .annotateContext(
        OpenApi.annotations({
          summary: "Create a campaign",
          description:
            "A campaign in status `created`, optionally with its first contacts (imported as `POST …/contacts` does; the answer's `contacts` says what was added). 404 when the agent or `from_phone_number_id` is not the organization's (or the number is released); 409 for an archived agent, or when the organization already has `QUOTA_CAMPAIGNS` (default 100) campaigns not yet completed or canceled."
        })
      )
  )
  .add(
    HttpApiEndpoint.post("addContacts", "/campaigns/:campaign_id/contacts")
      .setPath(campaignPath)
      .setPayload(Schema.Union(AddContactsJson, AddContactsForm, AddContactsCsv))
      .addSuccess(ImportResponse)
      .addError(NotFound)
      .addError(Conflict)
      .annotate(BodyPolicy.MaxBodyBytes, maxContactsBodyBytes)
      .annotateContext(
        OpenApi.annotations({
          summary: "Add contacts",
          description: `Adds contacts as JSON (\`{contacts: [...]}\`), as a CSV file (multipart field \`file\`) or as a \`text/csv\` body. A CSV header must have \`phone_number\`; every other column becomes a key of the contact's \`initial_context\` (as text). Numbers are normalised to E.164; a number the campaign already has (or that repeats in the request) counts in \`duplicates\`; an invalid row is listed in \`rejected\` with its 1-based row (the first row after the header is 1) and skipped. A malformed CSV file is a 422 and imports nothing. At most ${ContactImport.maxContactsPerRequest} contacts per request and ${ContactImport.maxContactsPerCampaign} per campaign (one more is a 422 and imports nothing). Allowed while the campaign is \`created\` or \`paused\` (409 otherwise).`
        })
      )
  )
  .add(
    HttpApiEndpoint.post("preflightContacts", "/campaigns/:campaign_id/contacts/preflight")
      .setPath(campaignPath)
      .setPayload(Schema.Union(AddContactsJson, AddContactsForm, AddContactsCsv))
      .addSuccess(ContactPreflightResponse)
      .addError(NotFound)
      .addError(Conflict)
      .annotate(BodyPolicy.MaxBodyBytes, maxContactsBodyBytes)
      .annotateContext(
        OpenApi.annotations({
          summary: "Check contacts before adding them",
          description: `Reads contacts exactly as \`POST …/contacts\` does (JSON, a CSV file in the multipart field \`file\`, or a \`text/csv\` body, with its bounds) and answers what adding them now would do, importing nothing: \`rows\` read, \`valid\`, \`invalid\` rows with their reasons, \`duplicates\` (within the list or already in the campaign), and of the \`would_add\` contacts how many are on the Do not call list (\`do_not_call\`) and how many are outside calling hours at this moment (\`outside_calling_hours_now\`). Refused as the import would be: 404 for an unknown campaign, 409 when the campaign takes no more contacts, 422 for a malformed file or more contacts than the campaign may hold.`
        })
      )
  )
  .add(
    HttpApiEndpoint.del("removeContact", "/campaigns/:campaign_id/contacts/:contact_id")
      .setPath(contactPath)
      .addSuccess(HttpApiSchema.NoContent)
      .addError(NotFound)
      .addError(Conflict)
      .annotateContext(
        OpenApi.annotations({
          summary: "Remove a pending contact",
          description:
            "Erases a contact that has not been called (status `pending`), with its number and context; 409 for any other status."
        })
      )
  )
  .add(
    HttpApiEndpoint.get("list", "/campaigns")
      .setUrlParams(PageQuery)
      .addSuccess(PageOf(CampaignResponse, "CampaignPage"))
      .annotateContext(
        OpenApi.annotations({
          summary: "List campaigns",
          description: "The organization's campaigns, newest first."
        })
      )
  )
  .add(
    HttpApiEndpoint.get("get", "/campaigns/:campaign_id")
      .setPath(campaignPath)
      .addSuccess(CampaignResponse)
      .addError(NotFound)
      .annotateContext(
        OpenApi.annotations({
          summary: "Get a campaign",
          description: "One campaign with its counts of contacts per status."
        })
      )
  )
  .add(
    transition("start", "Start a campaign", "`created` → `running`: the dialer starts calling its contacts.")
  )
  .add(
    transition(
      "pause",
      "Pause a campaign",
      "`running` → `paused`: nothing new is dialed; calls in progress finish."
    )
  )
  .add(transition("resume", "Resume a campaign", "`paused` → `running`."))
  .add(
    transition(
      "cancel",
      "Cancel a campaign",
      "`created`, `running` or `paused` → `canceled`: pending contacts become `skipped` with `last_error` `canceled`; calls in progress finish."
    )
  )
  .add(
    HttpApiEndpoint.get("report", "/campaigns/:campaign_id/report")
      .setPath(campaignPath)
      .setUrlParams(
        Schema.Struct({ ...PageParams, status: Schema.optionalWith(Campaign.ContactStatus, { exact: true }) })
      )
      .addSuccess(ReportResponse)
      .addSuccess(ReportCsv)
      .addError(NotFound)
      .annotateContext(
        OpenApi.annotations({
          summary: "Get Campaign Report",
          description:
            "A summary (kept as contacts move, so it is exact while the campaign runs) and one row per contact in the order added, paginated, optionally of one `status`. With `Accept: text/csv` the answer is every contact (paging and `status` ignored) as CSV, streamed. A run that was deleted no longer shows in its contact's row."
        })
      )
  )
  .middleware(Authentication)
  .prefix("/api/v1") {}
