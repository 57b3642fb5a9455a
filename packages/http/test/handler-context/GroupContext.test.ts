import { describe, expect, it } from "@effect/vitest"
import {
  HttpApi,
  HttpApiBuilder,
  HttpApiEndpoint,
  HttpApiGroup,
  HttpServer,
  HttpServerRequest
} from "@effect/platform"
import { Context, Effect, Layer, Option, Schema } from "effect"
import * as GroupContext from "../../src/handler-context/GroupContext.js"
import * as PublicBaseUrl from "../../src/files/PublicBaseUrl.js"

class Listed extends Context.Tag("test/GroupContext/Listed")<Listed, string>() {}
class Unlisted extends Context.Tag("test/GroupContext/Unlisted")<Unlisted, string>() {}

const Seen = Schema.Struct({
  listed: Schema.String,
  unlisted: Schema.Boolean,
  publicBaseUrl: Schema.String,
  path: Schema.String
})
const api = HttpApi.make("groupContext").add(
  HttpApiGroup.make("g").add(HttpApiEndpoint.get("seen", "/seen").addSuccess(Seen))
)

/** A group that takes `Listed` when built, and looks for the rest while it answers. */
const group = HttpApiBuilder.group(api, "g", (handlers) =>
  Effect.map(Listed, (listed) =>
    handlers.handle("seen", () =>
      Effect.gen(function* () {
        const unlisted = yield* Effect.serviceOption(Unlisted)
        const publicBaseUrl = yield* PublicBaseUrl.PublicBaseUrl
        const request = yield* HttpServerRequest.HttpServerRequest
        return {
          listed,
          unlisted: Option.isSome(unlisted),
          publicBaseUrl: Option.getOrElse(publicBaseUrl, () => "none"),
          path: request.url
        }
      })
    )
  )
)

/**
 * What to do when this fails after an upgrade of @effect/platform: `GroupContext.builtWith` relies on an
 * internal detail of `HttpApiBuilder.group` (it builds a group's handlers once, in the context of the
 * layer that builds the group, and the platform merges that context into each request the group answers;
 * the router and middleware registry, `HttpApiBuilder.Router`/`Middleware`, travel in it).
 */
const upgradeAdvice =
  "GroupContext.builtWith no longer gives a group its services: @effect/platform's HttpApiBuilder.group changed how " +
  "it builds a group's handlers or which context they run in. Read HttpApiBuilder.group and httpApp in the new " +
  "version; if a service the platform needs moved, add its tag to GroupContext.everyGroupGets; if groups no longer keep " +
  "the context they were built in, drop GroupContext.builtWith from AppLayer (every group then gets the whole context, " +
  "correct but a slower request path: docs/performance.md, 'the service context')."

const answer = (groupLayer: Layer.Layer<HttpApiGroup.ApiGroup<"groupContext", "g">, never, Listed>) =>
  Effect.promise(async () => {
    const { dispose, handler } = HttpApiBuilder.toWebHandler(
      Layer.mergeAll(HttpApiBuilder.api(api).pipe(Layer.provide(groupLayer)), HttpServer.layerContext).pipe(
        Layer.provide(Layer.succeed(Listed, "listed")),
        Layer.provide(Layer.succeed(Unlisted, "unlisted")),
        Layer.provide(Layer.succeed(PublicBaseUrl.PublicBaseUrl, Option.some("https://api.example.com")))
      )
    )
    try {
      const response = await handler(new Request("http://localhost/seen"))
      return { status: response.status, body: (await response.json()) as unknown }
    } finally {
      await dispose()
    }
  })

describe("GroupContext.builtWith", () => {
  it.effect("builds a group with its listed services and the settings, not with the rest", () =>
    Effect.gen(function* () {
      const narrowed = yield* answer(GroupContext.builtWith(group, [Listed]))
      expect(narrowed, upgradeAdvice).toEqual({
        status: 200,
        body: {
          listed: "listed",
          unlisted: false,
          publicBaseUrl: "https://api.example.com",
          path: "/seen"
        }
      })
      // the same group without it sees every service provided around it
      const whole = yield* answer(group)
      expect(whole.body).toMatchObject({ listed: "listed", unlisted: true })
    })
  )
})

describe("GroupContext.builtWith's completeness check", () => {
  it("does not compile a list that leaves out a service the group needs", () => {
    // `group` needs `Listed`: an empty list must ask for the missing service (typecheck covers this file;
    // were the check to stop working, the directive below would be unused and the typecheck would fail)
    // @ts-expect-error Listed is missing from the list
    const incomplete = GroupContext.builtWith(group, [])
    expect(Layer.isLayer(incomplete)).toBe(true)
  })
})
