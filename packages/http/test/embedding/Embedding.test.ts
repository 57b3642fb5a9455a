import { describe, expect, it } from "@effect/vitest"
import { CallScript, InMemory, Organizations, SimulatedEngine } from "@voice-agent-platform/core"
import * as MemoryBlobStore from "@voice-agent-platform/core/memory/MemoryBlobStore.js"
import { EmbeddedPostgres, PgStorage, SecretBox } from "@voice-agent-platform/pg"
import { Effect, Exit, Layer, ManagedRuntime, Redacted, Schema } from "effect"
import { createServer, request } from "node:http"
import type { AddressInfo } from "node:net"
import * as Client from "../../src/embedding/Client.js"
import * as NodeHandler from "../../src/embedding/NodeHandler.js"
import * as WebHandler from "../../src/embedding/WebHandler.js"
import { completedCall } from "../support/RunFixtures.js"

/** An engine the test can also reach, to make an organization and its key. */
const sharedEngine = async () => {
  const memoMap = Effect.runSync(Layer.makeMemoMap)
  const runtime = ManagedRuntime.make(InMemory.layer, memoMap)
  const engine = Layer.succeedContext(
    await runtime.runPromise(Effect.context<Layer.Layer.Success<typeof InMemory.layer>>())
  )
  const { key } = await runtime.runPromise(
    Effect.flatMap(Organizations.Organizations, (o) => o.create({ name: "Embedded" }))
  )
  return { engine, apiKey: key.api_key, dispose: () => runtime.dispose() }
}

describe("embedding", () => {
  it("serves as a web handler (Request → Response)", async () => {
    const { engine, apiKey, dispose } = await sharedEngine()
    const web = WebHandler.make({ engine, adminToken: Redacted.make("operator-token-0123456789") })
    try {
      const health = await web.handler(new Request("http://embedded.test/health"))
      expect(health.status).toBe(200)
      const created = await web.handler(
        new Request("http://embedded.test/api/v1/agents/from-script", {
          method: "POST",
          headers: { "x-api-key": apiKey, "content-type": "application/json" },
          body: JSON.stringify({ agent: { greeting: "Hello" } })
        })
      )
      expect(created.status).toBe(200)
      expect(created.headers.get("x-request-id")).toBeTruthy()
      const unauthorized = await web.handler(new Request("http://embedded.test/api/v1/agents"))
      expect(unauthorized.status).toBe(401)
      expect(await unauthorized.json()).toEqual({ detail: "Invalid API key" })
    } finally {
      await web.dispose()
      await dispose()
    }
  })

  it("takes quotas per organization as an option: one more webhook endpoint is 409", async () => {
    const adminToken = "operator-token-0123456789"
    const web = WebHandler.make({ adminToken: Redacted.make(adminToken), quotas: { webhook_endpoints: 2 } })
    try {
      const created = await web.handler(
        new Request("http://embedded.test/admin/v1/organizations", {
          method: "POST",
          headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
          body: JSON.stringify({ name: "Quota test" })
        })
      )
      expect(created.status).toBe(200)
      const { api_key } = (await created.json()) as { api_key: string }
      const createWebhook = (n: number) =>
        web.handler(
          new Request("http://embedded.test/api/v1/webhooks", {
            method: "POST",
            headers: { "x-api-key": api_key, "content-type": "application/json" },
            body: JSON.stringify({ url: `https://crm.example.com/hooks/${n}` })
          })
        )
      expect((await createWebhook(1)).status).toBe(200)
      expect((await createWebhook(2)).status).toBe(200)
      const refused = await createWebhook(3)
      expect(refused.status).toBe(409)
      expect(((await refused.json()) as { detail: string }).detail).toMatch(
        /^quota_exceeded: .* 2 webhook endpoints/
      )
    } finally {
      await web.dispose()
    }
  })

  it("keeps the request edge as a web handler: 415, 413 while streaming, multipart uploads", async () => {
    const { engine, apiKey, dispose } = await sharedEngine()
    const web = WebHandler.make({ engine })
    try {
      const post = (path: string, contentType: string, body: string | ReadableStream<Uint8Array>) =>
        web.handler(
          new Request(`http://embedded.test${path}`, {
            method: "POST",
            headers: { "x-api-key": apiKey, "content-type": contentType },
            body,
            duplex: "half"
          } as RequestInit)
        )
      const xml = await post("/api/v1/agents/from-script", "application/xml", "<agent/>")
      expect(xml.status).toBe(415)
      // a body with no declared length, over 1 MiB: refused while it streams, without reading the rest
      let pulled = 0
      const endless = new ReadableStream<Uint8Array>({
        pull: (controller) => {
          pulled += 64 * 1024
          controller.enqueue(new Uint8Array(64 * 1024).fill(0x20))
        }
      })
      const large = await post("/api/v1/agents/from-script", "application/json", endless)
      expect(large.status).toBe(413)
      expect(await large.json()).toEqual({ detail: "The body must be at most 1048576 bytes" })
      expect(pulled).toBeLessThan(4 * 1024 * 1024)
      const form = new FormData()
      form.append("file", new Blob(["hello"], { type: "text/plain" }), "hello.txt")
      const request = new Request("http://embedded.test/api/v1/knowledge-base/documents", {
        method: "POST",
        headers: { "x-api-key": apiKey },
        body: form
      })
      const uploaded = await web.handler(request)
      expect(uploaded.status).toBe(200)
      expect(await uploaded.json()).toMatchObject({ filename: "hello.txt", file_size_bytes: 5 })
    } finally {
      await web.dispose()
      await dispose()
    }
  })

  it("serves as a Node (req, res) handler mounted on node:http", async () => {
    const { engine, apiKey, dispose } = await sharedEngine()
    const node = NodeHandler.make({ engine })
    const server = createServer(node.handler)
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    const port = (server.address() as AddressInfo).port
    try {
      const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = request(
          { host: "127.0.0.1", port, path: "/api/v1/agents?limit=5", headers: { "x-api-key": apiKey } },
          (res) => {
            let body = ""
            res.on("data", (c) => (body += c))
            res.on("end", () => resolve({ status: res.statusCode ?? 0, body }))
          }
        )
        req.on("error", reject)
        req.end()
      })
      expect(answer.status).toBe(200)
      expect(JSON.parse(answer.body)).toMatchObject({ items: [], total_count: 0, page: 1, limit: 5 })
    } finally {
      await new Promise((resolve) => server.close(resolve))
      await node.dispose()
      await dispose()
    }
  })

  it("has a typed client made from the same definition", async () => {
    const { engine, apiKey, dispose } = await sharedEngine()
    const node = NodeHandler.make({ engine })
    const server = createServer(node.handler)
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    const port = (server.address() as AddressInfo).port
    try {
      const program = Effect.gen(function* () {
        const client = yield* Client.make({ baseUrl: `http://127.0.0.1:${port}`, apiKey })
        // Payloads are the schema's Type: decode the wire shape to fill its defaults.
        const payload = Schema.decodeUnknownSync(CallScript.CallScriptRequest)({
          agent: { greeting: "Hi there" }
        })
        const agent = yield* client.agents.createFromScript({ payload })
        const read = yield* client.agents.get({ path: { agent_id: agent.public_id } })
        expect(read.workflow_definition.first_message).toBe("Hi there")
        const missing = yield* Effect.exit(
          client.agents.get({ path: { agent_id: "agent_00000000000000000000" } })
        )
        expect(Exit.isFailure(missing)).toBe(true)
      })
      await Effect.runPromise(program)
    } finally {
      await new Promise((resolve) => server.close(resolve))
      await node.dispose()
      await dispose()
    }
  })
})

describe("embedding over the SQL storage", () => {
  it("serves a web handler whose engine keeps its data in an embedded PostgreSQL", async () => {
    const adminToken = "operator-token-0123456789"
    const storage = PgStorage.layer.pipe(
      Layer.provide(SecretBox.layer(Redacted.make("an-embedding-test-encryption-key-0123"))),
      Layer.provide(EmbeddedPostgres.layer())
    )
    const web = WebHandler.make({
      engine: SimulatedEngine.layer(storage, MemoryBlobStore.layer),
      adminToken: Redacted.make(adminToken)
    })
    const send = (method: string, path: string, headers: Record<string, string>, body?: unknown) =>
      web.handler(
        new Request(`http://embedded.test${path}`, {
          method,
          headers: { ...headers, ...(body === undefined ? {} : { "content-type": "application/json" }) },
          ...(body === undefined ? {} : { body: JSON.stringify(body) })
        })
      )
    try {
      const created = await send(
        "POST",
        "/admin/v1/organizations",
        { authorization: `Bearer ${adminToken}` },
        { name: "Embedded over SQL" }
      )
      expect(created.status).toBe(200)
      const { api_key: apiKey } = (await created.json()) as { api_key: string }
      const agent = await send(
        "POST",
        "/api/v1/agents/from-script",
        { "x-api-key": apiKey },
        {
          agent: { greeting: "Hello" }
        }
      )
      expect(agent.status).toBe(200)
      const listed = await send("GET", "/api/v1/agents", { "x-api-key": apiKey })
      expect(((await listed.json()) as { total_count: number }).total_count).toBe(1)
    } finally {
      await web.dispose()
    }
  }, 60_000)
})

describe("embedding: where links point", () => {
  /** An embedded web handler over an engine holding one completed call; answers the recording's link. */
  const recordingLinkVia = async (
    options: { publicBaseUrl?: string; trustedHosts?: ReadonlyArray<string> },
    host: string
  ) => {
    const memoMap = Effect.runSync(Layer.makeMemoMap)
    const runtime = ManagedRuntime.make(InMemory.layer, memoMap)
    const { organization, key } = await runtime.runPromise(
      Effect.flatMap(Organizations.Organizations, (o) => o.create({ name: "Embedded" }))
    )
    const engine = Layer.succeedContext(
      await runtime.runPromise(Effect.context<Layer.Layer.Success<typeof InMemory.layer>>())
    )
    const web = WebHandler.make({ engine, ...options })
    try {
      const agent = (await (
        await web.handler(
          new Request(`http://${host}/api/v1/agents/from-script`, {
            method: "POST",
            headers: { "x-api-key": key.api_key, "content-type": "application/json" },
            body: JSON.stringify({ agent: { greeting: "Hello" } })
          })
        )
      ).json()) as { id: number }
      const call = await runtime.runPromise(completedCall(organization, agent.id))
      const response = await web.handler(
        new Request(
          `http://${host}/api/v1/agents/${agent.id}/conversations/${call.run.workflow_run_id}/recording`,
          {
            headers: { "x-api-key": key.api_key }
          }
        )
      )
      return ((await response.json()) as { download_url: string }).download_url
    } finally {
      await web.dispose()
      await runtime.dispose()
    }
  }

  it("takes the configured base URL, a trusted Host, and never an untrusted one", async () => {
    expect(
      await recordingLinkVia({ publicBaseUrl: "https://voice.example.com/api" }, "attacker.example")
    ).toMatch(/^https:\/\/voice\.example\.com\/api\/api\/v1\/files\/download\?key=/)
    expect(await recordingLinkVia({ trustedHosts: ["embedded.test"] }, "embedded.test")).toMatch(
      /^http:\/\/embedded\.test\/api\/v1\/files\/download\?key=/
    )
    expect(await recordingLinkVia({ trustedHosts: ["embedded.test"] }, "attacker.example")).toMatch(
      /^http:\/\/localhost\/api\/v1\/files\/download\?key=/
    )
    // earlier versions' behaviour, for a host behind a proxy that checks Host itself
    expect(await recordingLinkVia({ trustedHosts: ["*"] }, "anything.example")).toMatch(
      /^http:\/\/anything\.example\/api\/v1\/files\/download\?key=/
    )
  })
})
