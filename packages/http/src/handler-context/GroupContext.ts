import { HttpApi, HttpApiBuilder, HttpServer } from "@effect/platform"
import {
  AnalysisSettings,
  BrowserSessionLimits,
  CallRates,
  CarrierTimings,
  ChatSettings,
  ModelChoices,
  ModelPricing,
  OAuthProvidersConfig,
  Quotas,
  RecordingSpool,
  SimulationConfig,
  VoiceLoopSettings
} from "@voice-agent-platform/core"
import { Context, Effect, Layer } from "effect"
import * as ConsoleRoutes from "../console/ConsoleRoutes.js"
import * as PublicBaseUrl from "../files/PublicBaseUrl.js"
import * as RuntimeAuthentication from "../middleware/RuntimeAuthentication.js"
import * as RequestDeadline from "../middleware/RequestDeadline.js"
import * as AccessLog from "../observability/AccessLog.js"
import * as MetricsRoute from "../observability/MetricsRoute.js"

/**
 * What every handler group is built with besides what its type names: the API's router and middleware
 * registry (the platform's, not in a group's type), and the services read without a type saying so —
 * the settings that are `Context.Reference`s (a handler or a core function reading one that is missing
 * silently gets its default) and `HttpServer` (read as an option for download links' origin). A new
 * `Context.Reference` read while a request is answered belongs here (`GroupContextAlways.test.ts` checks
 * that every one declared in the packages is).
 */
export const everyGroupGets = [
  HttpApiBuilder.Router,
  HttpApiBuilder.Middleware,
  HttpApi.Api,
  Layer.CurrentMemoMap,
  HttpServer.HttpServer,
  CallRates.CallRates,
  ModelPricing.ModelPricing,
  ModelChoices.ModelChoices,
  ChatSettings.ChatSettings,
  AnalysisSettings.AnalysisSettings,
  VoiceLoopSettings.VoiceLoopSettings,
  BrowserSessionLimits.BrowserSessionLimit,
  RecordingSpool.RecordingSpools,
  CarrierTimings.CarrierTimings,
  SimulationConfig.SimulationConfig,
  Quotas.Quotas,
  OAuthProvidersConfig.OAuthProvidersConfig,
  PublicBaseUrl.PublicBaseUrl,
  PublicBaseUrl.TrustedHosts,
  RuntimeAuthentication.RuntimeToken,
  RequestDeadline.RequestDeadline,
  MetricsRoute.MetricsToken,
  MetricsRoute.ScrapeGauges,
  ConsoleRoutes.ConsoleEnabled,
  AccessLog.AccessLog
] as const

type Tags = ReadonlyArray<Context.Tag<any, any>>

/** The services a group's type needs that `tags` leaves out. */
type Missing<R, T extends Tags> = Exclude<R, Context.Tag.Identifier<T[number]>>

/**
 * A handler group (`HttpApiBuilder.group`) built in a context of its own services only: `tags` (which
 * must name every service of the group's type: a list that leaves one out does not compile) and the few
 * every group gets (`everyGroupGets`). The platform merges the context a group was built in into every request
 * it answers, and every span and service provided while a handler runs copies it again: the engine's
 * whole context is some seventy services, a group's a dozen or fewer.
 */
export const builtWith = <A, E, R, const T extends Tags>(
  group: Layer.Layer<A, E, R>,
  tags: T,
  // a third argument is asked for, named by the services missing from `tags`, when the list is not complete
  ..._complete: [Missing<R, T>] extends [never] ? [] : [missing: Missing<R, T>]
): Layer.Layer<A, E, R> => {
  const kept = Context.pick(...tags, ...everyGroupGets)
  return Layer.scopedContext(
    Effect.flatMap(Effect.scope, (scope) =>
      Effect.flatMap(Layer.CurrentMemoMap, (memoMap) =>
        // the group's context is replaced, not added to (`Effect.provide` would merge it into the whole)
        Effect.mapInputContext(
          Layer.buildWithMemoMap(group, memoMap, scope),
          (context: Context.Context<R>) => kept(context as Context.Context<never>) as Context.Context<R>
        )
      )
    )
  )
}
