import { HttpApiBuilder, HttpApiClient, HttpClient, HttpClientRequest } from "@effect/platform"
import {
  EmbeddedModel,
  AllowList,
  DownloadLinks,
  InMemory,
  OutboundHttp,
  OutboundPolicy,
  MemoryTelephony,
  Organizations,
  PriceListConfig,
  SecureRandom,
  Services
} from "@voice-agent-platform/core"
import * as MemoryBlobStore from "@voice-agent-platform/core/memory/MemoryBlobStore.js"
import { EmbeddedPostgres, PgStorage, SecretBox } from "@voice-agent-platform/pg"
import { Effect, Either, Layer, Option, Redacted } from "effect"
import { Api } from "@voice-agent-platform/contract/Api.js"
import * as AppLayer from "../../src/AppLayer.js"
import * as OperatorAuthentication from "../../src/middleware/OperatorAuthentication.js"
import * as RuntimeAuthentication from "../../src/middleware/RuntimeAuthentication.js"
import * as NodeOutboundHttp from "../../src/outbound/NodeOutboundHttp.js"
import * as HardenedNodeServer from "../../src/server/HardenedNodeServer.js"

/**
 * A real HTTP server on a random local port over the in-memory engine (or, `TestServerOverSql`, the SQL one); tests talk to it through
 * `HttpClient` (raw) or a typed client, and reach the same engine directly to set things up.
 */
/** The operator token of the test server. */
export const adminToken = "test-admin-token-0123456789"

/** The voice-runtime token of the test server. */
export const runtimeToken = "test-runtime-token-0123456789"

/**
 * Where the test servers may send webhooks and tool requests: loopback is allowed explicitly (as an
 * operator would with `OUTBOUND_ALLOW_HOSTS`), for receivers on this machine.
 */
export const loopbackAllowHosts = "127.0.0.0/8,::1,localhost"

/** The outbound policy allowing `loopbackAllowHosts`. */
export const loopbackAllowed = OutboundPolicy.layer(Either.getOrThrow(AllowList.parse(loopbackAllowHosts)))

/**
 * The test server over the given engine, with an outbound policy (default: loopback allowed) and the
 * outbound client tools call through (default: node:http with the system resolver, under that policy).
 */
export const serverOver = <A, E>(
  engine: Layer.Layer<A, E>,
  outboundPolicy: Layer.Layer<OutboundPolicy.OutboundPolicy> = loopbackAllowed,
  outbound: Layer.Layer<
    OutboundHttp.OutboundHttp,
    never,
    OutboundPolicy.OutboundPolicy
  > = NodeOutboundHttp.layer
) =>
  HttpApiBuilder.serve().pipe(
    Layer.provide(AppLayer.layerWithOutbound),
    Layer.provide(outbound),
    Layer.provideMerge(outboundPolicy),
    Layer.provide(OperatorAuthentication.layerToken(Option.some(Redacted.make(adminToken)))),
    Layer.provide(RuntimeAuthentication.layerToken(Option.some(Redacted.make(runtimeToken)))),
    Layer.provide(DownloadLinks.layerRandom),
    Layer.provideMerge(engine),
    // the bundled server's Node server, limits and request context narrowing included
    Layer.provideMerge(
      HardenedNodeServer.layerTest(undefined, { narrowRequestContext: true, directRoutes: true })
    )
  )

export const TestServer = serverOver(InMemory.layer)

/**
 * The engine with its records in SQL, on an embedded PostgreSQL in memory (files and telephony stay in
 * memory): for tests of what only a real database refuses or decides.
 */
/**
 * Every store in SQL, on a fresh embedded PostgreSQL in memory, opened already migrated (from the
 * process's snapshot: a server costs about 0.8 s of processor time to build instead of 2.7 s).
 */
export const storesOverSql = PgStorage.layer.pipe(
  Layer.provide(SecretBox.layer(Redacted.make("the test server's encryption key 0123456789"))),
  Layer.provide(EmbeddedPostgres.layer({ migrated: true }))
)

export const engineOverSql = Services.layer.pipe(
  Layer.provideMerge(
    Layer.mergeAll(
      storesOverSql,
      MemoryBlobStore.layer,
      MemoryTelephony.layer,
      EmbeddedModel.layer,
      SecureRandom.layerWebCrypto,
      PriceListConfig.layerDefault
    )
  )
)

/** The test server over `engineOverSql`. */
export const TestServerOverSql = serverOver(engineOverSql)

/** A fresh organization and its API key. */
export const organization = (options: { readonly outbound_channels?: number } = {}) =>
  Effect.flatMap(Organizations.Organizations, (organizations) =>
    Effect.map(organizations.create({ name: "Test organization", ...options }), ({ organization, key }) => ({
      organization,
      apiKey: key.api_key
    }))
  )

/** The raw client, with the organization's key on every request. */
export const rawClient = (apiKey: string) =>
  Effect.map(HttpClient.HttpClient, HttpClient.mapRequest(HttpClientRequest.setHeader("x-api-key", apiKey)))

/** A typed client made from the API definition, with the organization's key on every request. */
export const typedClient = (apiKey: string) =>
  HttpApiClient.make(Api, {
    transformClient: HttpClient.mapRequest(HttpClientRequest.setHeader("x-api-key", apiKey))
  })

/** Sends a request and answers its status, headers and JSON body (or text when the body is not JSON). */
export const send = (client: HttpClient.HttpClient, request: HttpClientRequest.HttpClientRequest) =>
  Effect.gen(function* () {
    const response = yield* client.execute(request)
    const text = yield* response.text
    let body: unknown = text
    try {
      body = JSON.parse(text)
    } catch {
      // not JSON: keep the text
    }
    return { status: response.status, headers: response.headers, body, text }
  }).pipe(Effect.scoped)

/** A JSON request. */
export const json = (method: "POST" | "PUT" | "PATCH" | "DELETE", url: string, body: unknown) =>
  HttpClientRequest.make(method)(url).pipe(HttpClientRequest.bodyUnsafeJson(body))
