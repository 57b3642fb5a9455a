import { Usage, OperationSpans } from "@voice-agent-platform/core"
import { Effect } from "effect"
import { Api } from "@voice-agent-platform/contract/Api.js"
import * as CoreErrors from "../errors/CoreErrors.js"
import { CurrentOrganization } from "../middleware/Authentication.js"
import { render } from "@voice-agent-platform/contract/shared/Pagination.js"
import { reportResponse, runResponse, summaryResponse } from "./UsageResponses.js"
import * as CapturedGroups from "../direct/CapturedGroups.js"

/** Handlers of the usage group; the legacy addresses answer exactly what the new ones do. */
export const UsageHandlers = CapturedGroups.group(Api, "usage", (handlers) =>
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
      .handle(
        "summary",
        OperationSpans.fn("Usage.summary")(function* ({ urlParams }) {
          return yield* summary(urlParams)
        })
      )
      .handle(
        "runs",
        OperationSpans.fn("Usage.runs")(function* ({ urlParams }) {
          return yield* runs(urlParams)
        })
      )
      .handle(
        "report",
        OperationSpans.fn("Usage.report")(function* ({ urlParams }) {
          const organization = yield* CurrentOrganization
          const { group_by, ...period } = urlParams
          return reportResponse(yield* usage.report(organization.id, period, group_by))
        }, Effect.mapError(CoreErrors.toHttp))
      )
      .handle(
        "legacyCurrentPeriod",
        OperationSpans.fn("Usage.legacyCurrentPeriod")(function* () {
          return yield* summary({})
        })
      )
      .handle(
        "legacyRuns",
        OperationSpans.fn("Usage.legacyRuns")(function* ({ urlParams }) {
          return yield* runs(urlParams)
        })
      )
  })
)
