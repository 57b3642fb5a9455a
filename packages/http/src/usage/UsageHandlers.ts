import { HttpApiBuilder } from "@effect/platform"
import { Usage } from "@voice-agent-platform/core"
import { Effect } from "effect"
import { Api } from "@voice-agent-platform/contract/Api.js"
import * as CoreErrors from "../errors/CoreErrors.js"
import { CurrentOrganization } from "../middleware/Authentication.js"
import { render } from "@voice-agent-platform/contract/shared/Pagination.js"
import { reportResponse, runResponse, summaryResponse } from "./UsageResponses.js"

/** Handlers of the usage group; the legacy addresses answer exactly what the new ones do. */
export const UsageHandlers = HttpApiBuilder.group(Api, "usage", (handlers) =>
  Effect.gen(function* () {
    const usage = yield* Usage.Usage

    const summary = (period: { readonly from?: Date; readonly to?: Date }) =>
      Effect.gen(function* () {
        const organization = yield* CurrentOrganization
        return summaryResponse(yield* usage.summary(organization.id, period))
      }).pipe(Effect.mapError(CoreErrors.toHttp))

    const runs = (query: {
      readonly from?: Date
      readonly to?: Date
      readonly page: number
      readonly limit: number
    }) =>
      Effect.gen(function* () {
        const organization = yield* CurrentOrganization
        const { from, to, ...page } = query
        const lines = yield* usage.runs(organization.id, { from, to }, page)
        return render(lines.page, runResponse)
      }).pipe(Effect.mapError(CoreErrors.toHttp))

    return handlers
      .handle("summary", ({ urlParams }) => summary(urlParams))
      .handle("runs", ({ urlParams }) => runs(urlParams))
      .handle("report", ({ urlParams }) =>
        Effect.gen(function* () {
          const organization = yield* CurrentOrganization
          const { group_by, ...period } = urlParams
          return reportResponse(yield* usage.report(organization.id, period, group_by))
        }).pipe(Effect.mapError(CoreErrors.toHttp))
      )
      .handle("legacyCurrentPeriod", () => summary({}))
      .handle("legacyRuns", ({ urlParams }) => runs(urlParams))
  })
)
