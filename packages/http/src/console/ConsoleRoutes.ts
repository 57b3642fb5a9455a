import { HttpApiBuilder, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Context, Effect, Layer, Option } from "effect"
import * as ConsoleAssets from "./ConsoleAssets.js"
import { assetCacheControl, pageCacheControl, securityHeaders } from "./ConsoleHeaders.js"
import { assetsPath, consolePath, pageFor } from "./ConsolePage.js"

export { assetsPath, consolePath } from "./ConsolePage.js"

/** Whether the API serves the console at /console (default: it does; `EmbeddingOptions.console: false` turns it off). */
export class ConsoleEnabled extends Context.Reference<ConsoleEnabled>()(
  "@voice-agent-platform/http/ConsoleEnabled",
  { defaultValue: (): boolean => true }
) {}

/** The console served or not. */
export const layerEnabled = (enabled: boolean) => Layer.succeed(ConsoleEnabled, enabled)

/** The routes the console answers, as the request observation names them (never a raw path). */
export const routeNames = [consolePath, `${consolePath}/*`, `${assetsPath}*`] as const

const text = (status: number, body: string) =>
  HttpServerResponse.text(body, { status, headers: { ...securityHeaders, "cache-control": "no-store" } })

/**
 * The console: `GET /console` and every `/console/…` screen address answer its page (the console routes in
 * the browser, with the History API), `/console/assets/<hashed name>` its files, kept a year; every answer
 * with the console's security headers (ConsoleHeaders). The build (`@voice-agent-platform/console`'s
 * dist/console) is read on the first request and kept; a server started before the console was built serves
 * it once it is (until then its pages answer 503 saying so).
 */
export const layer = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function* () {
    if (!(yield* ConsoleEnabled)) return
    let loaded: ConsoleAssets.ConsoleBuild | undefined
    const build: Effect.Effect<ConsoleAssets.ConsoleBuild, Error> = Effect.suspend(() => {
      if (loaded !== undefined) return Effect.succeed(loaded)
      const directory = ConsoleAssets.buildDirectory()
      if (Option.isNone(directory))
        return Effect.fail(new Error("the package @voice-agent-platform/console is not installed"))
      return ConsoleAssets.read(directory.value).pipe(
        Effect.tap((read) => Effect.sync(() => (loaded = read)))
      )
    })
    const notBuilt = (error: Error) =>
      Effect.logWarning(`console: ${error.message}`).pipe(
        Effect.as(text(503, "The console is not built: run npm run build, then reload this page.\n"))
      )
    const page = Effect.gen(function* () {
      const request = yield* HttpServerRequest.HttpServerRequest
      const path = request.url.replace(/[?#].*$/s, "")
      // `/console/assets/` itself names no asset (and no screen)
      if (path.startsWith(assetsPath)) return text(404, "Not found\n")
      const { index } = yield* build
      return HttpServerResponse.text(pageFor(index, path), {
        contentType: "text/html; charset=utf-8",
        headers: { ...securityHeaders, "cache-control": pageCacheControl }
      })
    }).pipe(Effect.catchAll(notBuilt))
    const asset = Effect.gen(function* () {
      const request = yield* HttpServerRequest.HttpServerRequest
      const name = request.url.replace(/[?#].*$/s, "").slice(assetsPath.length)
      const { assets } = yield* build
      const found = assets.get(name)
      if (found === undefined) return text(404, "Not found\n")
      return HttpServerResponse.uint8Array(found.body, {
        contentType: found.contentType,
        headers: { ...securityHeaders, "cache-control": assetCacheControl }
      })
    }).pipe(Effect.catchAll(notBuilt))
    yield* router.get(consolePath, page)
    yield* router.get(`${consolePath}/*`, page)
    yield* router.get(`${assetsPath}*`, asset)
  })
)
