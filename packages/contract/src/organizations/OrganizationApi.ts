import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Authentication } from "../middleware/Authentication.js"
import { Timestamp } from "../shared/Timestamp.js"

/** `GET /organization`: the organization the key belongs to, as the console's overview shows it. */
export const OrganizationOverviewResponse = Schema.Struct({
  organization_id: Schema.Int,
  name: Schema.String,
  balance_pln: Schema.Number.annotations({
    description: "The prepaid balance in PLN, 2 decimals: number fees are debited from it, calls billed after"
  }),
  outbound_channels: Schema.Int.annotations({ description: "How many calls may be in flight at once" }),
  channels_busy: Schema.Int.annotations({
    description: "How many of those channels calls hold now (queued, ringing or talking)"
  }),
  recording_retention_days: Schema.NullOr(Schema.Int).annotations({
    description: "Days after a call's end when its recording and transcript are deleted; null keeps them"
  }),
  created_at: Timestamp
}).annotations({ identifier: "OrganizationOverview" })

/** The organization itself, as its own key sees it (its settings are the operator's to change). */
export class OrganizationApi extends HttpApiGroup.make("organization")
  .add(
    HttpApiEndpoint.get("get", "/organization")
      .addSuccess(OrganizationOverviewResponse)
      .annotateContext(
        OpenApi.annotations({
          summary: "Get the organization",
          description:
            "The organization the API key belongs to: its name, balance, outbound channels and how many are busy now, and its recording retention. Read at the time of the request (not from any cache)."
        })
      )
  )
  .middleware(Authentication)
  .prefix("/api/v1") {}
