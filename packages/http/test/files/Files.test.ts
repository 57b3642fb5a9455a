import { HttpApiBuilder, HttpClientRequest } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import { BlobStore, DownloadLinks, InMemory } from "@voice-agent-platform/core"
import { ConfigProvider, Effect, Exit, Layer, Option, Redacted, TestClock } from "effect"
import * as AppLayer from "../../src/AppLayer.js"
import * as PublicBaseUrl from "../../src/files/PublicBaseUrl.js"
import * as OperatorAuthentication from "../../src/middleware/OperatorAuthentication.js"
import * as ServerConfig from "../../src/server/ServerConfig.js"
import { completedCall, createAgent, download, serverOrigin, wav } from "../support/RunFixtures.js"
import {
  adminToken,
  organization,
  rawClient,
  send,
  TestServer,
  TestServerOverSql,
  loopbackAllowed
} from "../support/TestServer.js"

type Body = Record<string, any>

const refused = { detail: "The download link is invalid or has expired" }

/** An organization with a completed call, and a fresh recording link of it living `expiresIn` seconds. */
const recordingLink = (expiresIn = 3600) =>
  Effect.gen(function* () {
    const { apiKey, organization: org } = yield* organization()
    const client = yield* rawClient(apiKey)
    const agent = yield* createAgent(client)
    const call = yield* completedCall(org, agent.id)
    const response = yield* send(
      client,
      HttpClientRequest.get(
        `/api/v1/agents/${agent.id}/conversations/${call.run.workflow_run_id}/recording?expires_in=${expiresIn}`
      )
    )
    return { ...call, client, agent, link: (response.body as Body).download_url as string }
  })

/** The link with one query parameter replaced (or removed when `value` is undefined). */
const withParam = (link: string, name: string, value: string | undefined) => {
  const url = new URL(link)
  if (value === undefined) url.searchParams.delete(name)
  else url.searchParams.set(name, value)
  return url.toString()
}

const swapChar = (text: string, index: number) =>
  text.slice(0, index) + (text[index] === "A" ? "B" : "A") + text.slice(index + 1)

describe.each([
  ["in-memory", TestServer],
  ["SQL (embedded PostgreSQL)", TestServerOverSql]
] as const)("signed file downloads over HTTP, %s storage", (_, server) => {
  it.effect("streams the file with its content type to anyone holding the link, with no API key", () =>
    Effect.gen(function* () {
      const { link } = yield* recordingLink()
      expect(new URL(link).searchParams.get("key")).toMatch(/^organizations\/\d+\/runs\/\d+\/recording\.wav$/)
      for (const headers of [{}, { "x-api-key": "vap_not-a-key" }]) {
        const file = yield* download(link, headers)
        expect(file.status).toBe(200)
        expect(file.bytes).toEqual(wav)
        expect(file.headers["content-type"]).toBe("audio/wav")
        expect(file.headers["content-disposition"]).toBe('attachment; filename="recording.wav"')
        expect(file.headers["cache-control"]).toBe("private, no-store")
        expect(file.headers["x-content-type-options"]).toBe("nosniff")
        expect(file.headers["x-request-id"]).toBeDefined()
      }
    }).pipe(Effect.provide(server))
  )

  it.effect("a link works until the second it expires, then is 403 with a body that reveals nothing", () =>
    Effect.gen(function* () {
      const { link } = yield* recordingLink(60)
      yield* TestClock.adjust("59999 millis")
      expect((yield* download(link)).status).toBe(200)
      yield* TestClock.adjust("1 millis")
      const expired = yield* download(link)
      expect(expired.status).toBe(403)
      expect(JSON.parse(expired.text)).toEqual(refused)
      expect(expired.headers["content-type"]).toContain("application/json")
    }).pipe(Effect.provide(server))
  )

  it.effect("refuses tampered links with the same 403: key, expiry, signature, missing parts", () =>
    Effect.gen(function* () {
      const { link } = yield* recordingLink()
      const other = yield* recordingLink()
      const url = new URL(link)
      const signature = url.searchParams.get("signature")!
      const otherKey = new URL(other.link).searchParams.get("key")!
      const tampered = [
        withParam(link, "key", otherKey), // another organization's file with this link's signature
        withParam(link, "key", `${url.searchParams.get("key")}x`),
        withParam(link, "expires", "99999999999"), // a longer life
        withParam(link, "expires", `0${url.searchParams.get("expires")}`),
        withParam(link, "signature", swapChar(signature, 0)),
        withParam(link, "signature", swapChar(signature, 42)),
        withParam(link, "signature", new URL(other.link).searchParams.get("signature")!),
        withParam(link, "signature", undefined),
        withParam(link, "expires", undefined),
        withParam(link, "key", undefined),
        `${url.origin}${url.pathname}`
      ]
      for (const candidate of tampered) {
        const response = yield* download(candidate)
        expect(response.status).toBe(403)
        expect(JSON.parse(response.text)).toEqual(refused)
      }
      // the genuine links still work
      expect((yield* download(link)).status).toBe(200)
      expect((yield* download(other.link)).status).toBe(200)
    }).pipe(Effect.provide(server))
  )

  it.effect("a valid link to a file removed since (retention) is 404", () =>
    Effect.gen(function* () {
      const { link, recordingKey } = yield* recordingLink()
      yield* (yield* BlobStore.BlobStore).remove(recordingKey)
      const gone = yield* download(link)
      expect(gone.status).toBe(404)
      expect(JSON.parse(gone.text)).toEqual({ detail: "The file is no longer available" })
    }).pipe(Effect.provide(server))
  )

  it.effect(
    "without PUBLIC_BASE_URL, links never take the request's Host: they point where the server listens",
    () =>
      Effect.gen(function* () {
        const { agent, client, run } = yield* recordingLink()
        const listening = yield* serverOrigin
        const path = `/api/v1/agents/${agent.id}/conversations/${run.workflow_run_id}`
        for (const headers of [
          { host: "attacker.example" },
          { host: "voice.example.test:8443", "x-forwarded-proto": "https" },
          {}
        ]) {
          const response = yield* send(
            client,
            HttpClientRequest.get(path).pipe(HttpClientRequest.setHeaders(headers))
          )
          const link = (response.body as Body).files.recording as string
          expect(
            link.startsWith(`${listening}/api/v1/files/download?key=`),
            `${JSON.stringify(headers)}: ${link}`
          ).toBe(true)
          expect((yield* download(link)).bytes).toEqual(wav)
        }
      }).pipe(Effect.provide(server))
  )

  it.effect("with PUBLIC_BASE_URL set, links use it whatever the request's Host", () =>
    Effect.gen(function* () {
      const { agent, client, run } = yield* recordingLink()
      const response = yield* send(
        client,
        HttpClientRequest.get(
          `/api/v1/agents/${agent.id}/conversations/${run.workflow_run_id}/recording`
        ).pipe(HttpClientRequest.setHeader("host", "attacker.example"))
      )
      const link = (response.body as Body).download_url as string
      expect(link).toMatch(/^https:\/\/voice\.example\.com\/base\/api\/v1\/files\/download\?key=/)
      // the link itself is valid: follow it on the test server
      const url = new URL(link)
      expect((yield* download(`http://localhost/api/v1/files/download${url.search}`)).bytes).toEqual(wav)
    }).pipe(
      Effect.provide(
        HttpApiBuilder.serve().pipe(
          Layer.provide(AppLayer.layer),
          Layer.provide(loopbackAllowed),
          Layer.provide(PublicBaseUrl.layer("https://voice.example.com/base/")),
          Layer.provide(DownloadLinks.layerRandom),
          Layer.provide(OperatorAuthentication.layerToken(Option.some(Redacted.make(adminToken)))),
          Layer.provideMerge(InMemory.layer),
          Layer.provideMerge(NodeHttpServer.layerTest)
        )
      )
    )
  )

  it.effect(
    "with trusted hosts, a trusted Host gives the request's origin, any other the listening address",
    () =>
      Effect.gen(function* () {
        const { agent, client, run } = yield* recordingLink()
        const listening = yield* serverOrigin
        const linkWith = (headers: Record<string, string>) =>
          Effect.map(
            send(
              client,
              HttpClientRequest.get(
                `/api/v1/agents/${agent.id}/conversations/${run.workflow_run_id}/recording`
              ).pipe(HttpClientRequest.setHeaders(headers))
            ),
            (response) => (response.body as Body).download_url as string
          )
        expect(yield* linkWith({ host: "Voice.Example.Test:8443", "x-forwarded-proto": "https" })).toMatch(
          /^https:\/\/voice\.example\.test:8443\/api\/v1\/files\/download\?key=/
        )
        expect(yield* linkWith({ host: "api.example.test" })).toMatch(
          /^http:\/\/api\.example\.test\/api\/v1\/files\/download\?/
        )
        for (const host of ["attacker.example", "voice.example.test", "voice.example.test:9999"]) {
          expect((yield* linkWith({ host })).startsWith(`${listening}/api/v1/files/download?`), host).toBe(
            true
          )
        }
      }).pipe(
        Effect.provide(
          HttpApiBuilder.serve().pipe(
            Layer.provide(AppLayer.layer),
            Layer.provide(loopbackAllowed),
            Layer.provide(
              Layer.orDie(PublicBaseUrl.layerTrustedHosts(["voice.example.test:8443", " API.example.test "]))
            ),
            Layer.provide(DownloadLinks.layerRandom),
            Layer.provide(OperatorAuthentication.layerToken(Option.some(Redacted.make(adminToken)))),
            Layer.provideMerge(InMemory.layer),
            Layer.provideMerge(NodeHttpServer.layerTest)
          )
        )
      )
  )

  it.effect("trusted hosts must be host names or addresses with an optional port", () =>
    Effect.gen(function* () {
      for (const bad of ["https://x.example", "x.example/path", "x.example:port", "a b"]) {
        const exit = yield* Effect.exit(
          Layer.build(PublicBaseUrl.layerTrustedHosts([bad])).pipe(Effect.scoped)
        )
        expect(Exit.isFailure(exit), bad).toBe(true)
      }
      const good = yield* PublicBaseUrl.TrustedHosts.pipe(
        Effect.provide(
          PublicBaseUrl.layerTrustedHosts(["*", "Api.Example.com", "10.0.0.1:8080", "[::1]:80", ""])
        )
      )
      expect(good).toEqual(["*", "api.example.com", "10.0.0.1:8080", "[::1]:80"])
      expect(yield* PublicBaseUrl.TrustedHosts).toEqual([])
    })
  )

  it.effect("PUBLIC_BASE_URL must be an absolute http(s) URL", () =>
    Effect.gen(function* () {
      for (const bad of ["voice.example.com", "ftp://voice.example.com", "https://x.example/?a=1", ""]) {
        const exit = yield* Effect.exit(Layer.build(PublicBaseUrl.layer(bad)).pipe(Effect.scoped))
        expect(Exit.isFailure(exit)).toBe(true)
      }
      const good = yield* PublicBaseUrl.PublicBaseUrl.pipe(
        Effect.provide(PublicBaseUrl.layer("http://h.example:81"))
      )
      expect(good).toEqual(Option.some("http://h.example:81"))
      expect(yield* PublicBaseUrl.PublicBaseUrl).toEqual(Option.none())
    })
  )
})

describe("link settings of the bundled server", () => {
  const read = (env: Record<string, string>) =>
    Effect.withConfigProvider(ServerConfig.load, ConfigProvider.fromMap(new Map(Object.entries(env))))

  it.effect("PUBLIC_HOSTS is a comma-separated list, empty by default", () =>
    Effect.gen(function* () {
      expect((yield* read({})).publicHosts).toEqual([])
      expect((yield* read({ PUBLIC_HOSTS: " api.example.com, localhost:8080 ,," })).publicHosts).toEqual([
        "api.example.com",
        "localhost:8080"
      ])
    })
  )
})
