import { HttpApiBuilder } from "@effect/platform"
import type { HttpApiGroup } from "@effect/platform"
import { Context, Effect } from "effect"

/** A handler group as the platform builds it, kept for the engine's direct routes (`DirectRoutes`). */
export interface CapturedGroup {
  readonly group: HttpApiGroup.HttpApiGroup.AnyWithProps
  readonly handlers: HttpApiBuilder.Handlers<any, any, any>
  /** The context the group was built in: what its handlers read (the platform merges it into each request's). */
  readonly context: Context.Context<never>
}

/**
 * The groups built for each API instance, by the instance's router (one per server: several servers in
 * one process, as in the tests, never see each other's handlers).
 */
const byRouter = new WeakMap<object, Array<CapturedGroup>>()

/** The handler groups built with `group` for the API whose router this is. */
export const of = (router: object): ReadonlyArray<CapturedGroup> => byRouter.get(router) ?? []

/**
 * `HttpApiBuilder.group`, unchanged for the platform's router, that also keeps the group's handlers and
 * the context they were built in, so that the engine's direct routes can call the same handlers without
 * the platform's per-request steps. Every handler group of the API is built with it.
 */
export const group: typeof HttpApiBuilder.group = (api, groupName, build) =>
  HttpApiBuilder.group(
    api,
    groupName,
    (handlers) =>
      Effect.gen(function* () {
        const context = yield* Effect.context<never>()
        const result = build(handlers) as unknown
        const built = (Effect.isEffect(result) ? yield* result : result) as HttpApiBuilder.Handlers<
          any,
          any,
          any
        >
        const router = Context.unsafeGet(context, HttpApiBuilder.Router)
        let groups = byRouter.get(router)
        if (groups === undefined) {
          groups = []
          byRouter.set(router, groups)
        }
        groups.push({ group: built.group, handlers: built, context })
        return built
      }) as never
  )
