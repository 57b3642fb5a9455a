import { ApiError, messageOf } from "./ApiErrors.js"
import { EventStreamReader, type ServerEvent } from "./EventStream.js"
import type { paths } from "./Schema.js"

/** The HTTP methods the console uses. */
export type Method = "get" | "post" | "patch" | "put" | "delete"

/** The API's paths that have an operation for this method. */
export type PathOf<M extends Method> = {
  [P in keyof paths]: paths[P] extends { [K in M]: object } ? P : never
}[keyof paths]

/** The operation of a path and method, as the OpenAPI types describe it. */
export type Operation<P extends keyof paths, M extends Method> = paths[P] extends { [K in M]: infer O }
  ? O
  : never

type ParametersOf<O> = O extends { parameters: infer X } ? X : never
type QueryOf<O> = ParametersOf<O> extends { query?: infer Q } ? Exclude<Q, undefined> : never
type PathParametersOf<O> = ParametersOf<O> extends { path: infer A } ? A : never
type JsonBodyOf<O> = O extends { requestBody?: { content: { "application/json": infer B } } } ? B : never

/** What an operation answers when it succeeds (its 200 or 201 JSON; nothing for a 204). */
export type ResultOf<O> = O extends { responses: { 200: { content: { "application/json": infer R } } } }
  ? R
  : O extends { responses: { 201: { content: { "application/json": infer R } } } }
    ? R
    : undefined

/** A query whose values may be left undefined (they are not sent), as filters read from a URL are. */
type LooseQuery<Q> = [Q] extends [never] ? never : { readonly [K in keyof Q]?: Q[K] | undefined }

/** What one request takes: path parameters when the path has some, the query, a JSON body, headers. */
export type RequestOptions<O> = ([PathParametersOf<O>] extends [never]
  ? { readonly path?: undefined }
  : { readonly path: PathParametersOf<O> }) & {
  readonly query?: LooseQuery<QueryOf<O>>
  readonly body?: JsonBodyOf<O>
  /** A body that is not JSON (a CSV file as `text/csv`), sent as it is with its media type. */
  readonly content?: RawContent
  readonly headers?: Readonly<Record<string, string>>
  readonly signal?: AbortSignal
}

/** A body sent as it is: a file or a text, with its media type. */
export interface RawContent {
  readonly type: string
  readonly data: Blob | string
}

/** A request as it is sent, its types checked at the call (`RequestOptions`). */
interface RawRequest {
  readonly path?: Readonly<Record<string, string | number>> | undefined
  readonly query?: Readonly<Record<string, unknown>> | undefined
  readonly body?: unknown
  readonly content?: RawContent | undefined
  readonly headers?: Readonly<Record<string, string>> | undefined
  readonly signal?: AbortSignal | undefined
  /** Sent without the key: a signed link carries its own authority (its signature). */
  readonly withoutKey?: boolean | undefined
}

/** How the client reaches the API. */
export interface ClientOptions {
  /** The address the API's paths are relative to, ending with `/` (e.g. `/`, or `/voice/` under a prefix). */
  readonly root: string
  /** The organization's API key, sent in `X-API-Key` (none: the request is sent without it). */
  readonly apiKey: () => string | undefined
  /** Called when the API refuses the key (401), with its reason. */
  readonly onUnauthorized?: (message: string) => void
  /** The fetch to use (tests give their own). */
  readonly fetch?: typeof fetch
}

/** The API's path with its `{parameters}` filled in (each encoded) and the query appended. */
export const urlOf = (
  root: string,
  path: string,
  parameters: Readonly<Record<string, string | number>> | undefined,
  query: Readonly<Record<string, unknown>> | undefined
): string => {
  const filled = path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = parameters?.[name]
    if (value === undefined) throw new Error(`the path parameter ${name} of ${path} is missing`)
    return encodeURIComponent(String(value))
  })
  const search = new URLSearchParams()
  for (const [name, value] of Object.entries(query ?? {})) {
    for (const one of Array.isArray(value) ? value : [value])
      if (one !== undefined && one !== null && one !== "") search.append(name, String(one))
  }
  const text = search.toString()
  return root.replace(/\/$/, "") + filled + (text === "" ? "" : `?${text}`)
}

/** A typed client of the API over `fetch`: JSON in and out, the API's errors as `ApiError`s. */
export const make = (options: ClientOptions) => {
  const send = async (method: Method, url: string, init: RawRequest, accept: string) => {
    const headers: Record<string, string> = { accept, ...init.headers }
    const key = init.withoutKey === true ? undefined : options.apiKey()
    if (key !== undefined) headers["x-api-key"] = key
    if (init.body !== undefined) headers["content-type"] = "application/json"
    if (init.content !== undefined) headers["content-type"] = init.content.type
    let response: Response
    try {
      response = await (options.fetch ?? fetch)(url, {
        method: method.toUpperCase(),
        headers,
        body: init.content?.data ?? (init.body === undefined ? null : JSON.stringify(init.body)),
        signal: init.signal ?? null,
        credentials: "omit",
        cache: "no-store"
      })
    } catch (error) {
      if (init.signal?.aborted === true) throw error
      throw new ApiError(0, "The server could not be reached. Check the connection and try again.")
    }
    if (!response.ok) {
      // an error's body only adds its detail: one that cannot be read leaves the status's own message
      const detail = await bodyOf(response).catch(() => undefined)
      const error = new ApiError(response.status, messageOf(response.status, detail))
      if (response.status === 401) options.onUnauthorized?.(error.message)
      throw error
    }
    return response
  }

  /** One request; answers the operation's parsed JSON (undefined for an empty answer). */
  const request = async <P extends keyof paths, M extends Method>(
    method: M,
    path: P,
    init: RequestOptions<Operation<P, M>>
  ): Promise<ResultOf<Operation<P, M>>> => {
    const raw = init as unknown as RawRequest
    const response = await send(
      method,
      urlOf(options.root, path, raw.path, raw.query),
      raw,
      "application/json"
    )
    const body = await bodyOf(response).catch((cause: unknown) => {
      if (raw.signal?.aborted === true) throw cause
      throw new ApiError(0, "The server's answer could not be read. Check the connection and try again.")
    })
    return body as ResultOf<Operation<P, M>>
  }

  /**
   * A request answered as server-sent events (`Accept: text/event-stream`): each event is handed to
   * `onEvent` as it arrives. An answer in JSON instead (a replayed idempotent request) is handed over as
   * one `done` event.
   */
  const stream = async <P extends PathOf<"post">>(
    path: P,
    init: RequestOptions<Operation<P, "post">>,
    onEvent: (event: ServerEvent) => void
  ): Promise<void> => {
    const raw = init as unknown as RawRequest
    const response = await send(
      "post",
      urlOf(options.root, path, raw.path, raw.query),
      raw,
      "text/event-stream"
    )
    if (
      !(response.headers.get("content-type") ?? "").startsWith("text/event-stream") ||
      response.body === null
    ) {
      onEvent({ event: "done", data: await response.text() })
      return
    }
    const reader = new EventStreamReader()
    const body = response.body.getReader()
    for (;;) {
      const { done, value } = await body.read()
      if (done) break
      for (const event of reader.push(value)) onEvent(event)
    }
    for (const event of reader.end()) onEvent(event)
  }

  /**
   * A file's bytes behind a signed link (a recording): `address` is on this origin (the page's CSP allows
   * no other) and is asked WITHOUT the key, which a signed link does not need (its signature is its
   * authority), so no address a link names can be sent the key; an error answer is an `ApiError` as for JSON.
   */
  const blob = async (
    address: string,
    init: { readonly accept?: string; readonly signal?: AbortSignal } = {}
  ): Promise<Blob> => {
    const response = await send(
      "get",
      address,
      { signal: init.signal, withoutKey: true },
      init.accept ?? "*/*"
    )
    return response.blob()
  }

  return {
    get: <P extends PathOf<"get">>(path: P, init: RequestOptions<Operation<P, "get">>) =>
      request("get", path, init),
    post: <P extends PathOf<"post">>(path: P, init: RequestOptions<Operation<P, "post">>) =>
      request("post", path, init),
    patch: <P extends PathOf<"patch">>(path: P, init: RequestOptions<Operation<P, "patch">>) =>
      request("patch", path, init),
    delete: <P extends PathOf<"delete">>(path: P, init: RequestOptions<Operation<P, "delete">>) =>
      request("delete", path, init),
    stream,
    blob,
    /** A GET answered in another media type (`text/csv`), as a file to save: the answer's body as a Blob. */
    download: async <P extends PathOf<"get">>(
      path: P,
      init: RequestOptions<Operation<P, "get">>,
      accept: string
    ): Promise<Blob> => {
      const raw = init as unknown as RawRequest
      return (await send("get", urlOf(options.root, path, raw.path, raw.query), raw, accept)).blob()
    }
  }
}

/** A client made by `make`. */
export type Client = ReturnType<typeof make>

/**
 * An answer's body: its JSON when it is JSON, its text otherwise, nothing when empty. A body that could
 * not be read (the page reloading under it, the connection lost) fails the request: taken for an empty
 * one, it made a screen render data that was not there.
 */
const bodyOf = async (response: Response): Promise<unknown> => {
  const text = await response.text()
  if (text === "") return undefined
  if ((response.headers.get("content-type") ?? "").includes("json")) {
    try {
      return JSON.parse(text)
    } catch {
      return text
    }
  }
  return text
}

/** A component of the API's schemas, by name (`Schema<"Agent">`). */
export type Schema<Name extends keyof import("./Schema.js").components["schemas"]> =
  import("./Schema.js").components["schemas"][Name]
