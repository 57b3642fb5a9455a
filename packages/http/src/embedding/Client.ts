import { FetchHttpClient, HttpApiClient, HttpClient, HttpClientRequest } from "@effect/platform"
import { Effect } from "effect"
import { Api } from "../Api.js"

/**
 * A typed client of the API, made from the same definition as the server: every endpoint is a method,
 * every documented error a typed failure. Uses `fetch`.
 */
export const make = (options: { readonly baseUrl: string; readonly apiKey?: string }) =>
  HttpApiClient.make(Api, {
    baseUrl: options.baseUrl,
    transformClient: (client) =>
      options.apiKey === undefined
        ? client
        : HttpClient.mapRequest(client, HttpClientRequest.setHeader("x-api-key", options.apiKey))
  }).pipe(Effect.provide(FetchHttpClient.layer))
