import { Etag, FileSystem, HttpPlatform, HttpServer, Path } from "@effect/platform"
import { Context } from "effect"

/**
 * The services a request's fiber starts with on the API's server: the platform's own (what the router, a
 * body's decoding, a multipart upload and a file response use) and the server. Not the whole service
 * context the server was built in: every step the platform takes on a request copies the context it runs
 * in (the server adds the request, the router its route, the security middleware the organization), and
 * that context holds the whole engine, some seventy services, compared entry by entry as it is set.
 *
 * The API still sees every service: each handler group runs in the context it was built in (the platform
 * merges it in per request, `HttpApiBuilder.group`), each API middleware and security middleware closes
 * over the services it took when built, and the docs and metrics routes over theirs. What runs on the
 * request's fiber outside those (a route registered on the API's router that reads a service only when
 * it answers, a response body's stream that asks for one) would find only these.
 */
export const tags = [
  HttpPlatform.HttpPlatform,
  FileSystem.FileSystem,
  Path.Path,
  Etag.Generator,
  HttpServer.HttpServer
] as const

/** The context a request's fiber starts with: the `tags` of the server's context, nothing else. */
export const narrow = <R>(context: Context.Context<R>): Context.Context<R> =>
  Context.pick(...tags)(context as Context.Context<never>) as Context.Context<R>
