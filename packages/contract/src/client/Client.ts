import { FetchHttpClient, HttpApiClient, HttpClient, HttpClientRequest } from "@effect/platform"
import { Effect } from "effect"
import { Api } from "../Api.js"
import * as ClientRetry from "./ClientRetry.js"

/** Where the client sends its requests and how. */
export interface ClientOptions {
  readonly baseUrl: string
  /** Sent as `X-API-Key` on every request. */
  readonly apiKey?: string
  /** How 429 answers are retried (default: `ClientRetry` defaults, 4 attempts); `false` never retries. */
  readonly retry?: ClientRetry.RetryOptions | false
}

/**
 * A typed client of the API, made from the same definition as the server: every endpoint is a method,
 * every documented error a typed failure (a call refused outside calling hours fails with
 * `ApiErrors.OutsideCallingHours`, whose `detail.retry_at` says when to call again). A 429 is retried
 * after `Retry-After` (exponential back-off with jitter when absent), a bounded number of times; a call
 * POST carries an `Idempotency-Key` (generated when none is given) so that its retries place one call.
 * Uses `fetch`; imports nothing but the API definition.
 */
export const make = (options: ClientOptions) =>
  HttpApiClient.make(Api, {
    baseUrl: options.baseUrl,
    transformClient: (client) => {
      const keyed =
        options.apiKey === undefined
          ? client
          : HttpClient.mapRequest(client, HttpClientRequest.setHeader("x-api-key", options.apiKey))
      return options.retry === false ? keyed : ClientRetry.retrying(options.retry)(keyed)
    }
  }).pipe(Effect.provide(FetchHttpClient.layer))
