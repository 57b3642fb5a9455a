import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Ref, Schema } from "effect"
import * as OutboundHttp from "../../src/outbound/OutboundHttp.js"
import { Credentials } from "../../src/tools/Credentials.js"
import * as IntegrationProvider from "../../src/tools/IntegrationProvider.js"
import { CreateToolRequest } from "../../src/tools/Tool.js"
import * as ToolExecutor from "../../src/tools/ToolExecutor.js"
import { Tools } from "../../src/tools/Tools.js"
import * as Fixtures from "../../testing/Fixtures.js"
import { engine } from "../services/Engine.js"

/** An outbound client in memory: keeps every request and answers from `answer`. */
class Sent extends Effect.Service<Sent>()("test/Sent", {
  effect: Ref.make<ReadonlyArray<OutboundHttp.OutboundRequest>>([])
}) {}

const outbound = (answer: (request: OutboundHttp.OutboundRequest) => OutboundHttp.OutboundResponse) =>
  Layer.effect(
    OutboundHttp.OutboundHttp,
    Effect.map(Sent, (sent) => ({
      send: (request: OutboundHttp.OutboundRequest) =>
        Effect.as(
          Ref.update(sent, (all) => [...all, request]),
          answer(request)
        )
    }))
  )

const json = (body: unknown): OutboundHttp.OutboundResponse => ({
  status: 200,
  headers: { "content-type": "application/json" },
  body: new TextEncoder().encode(JSON.stringify(body)),
  truncated: false
})

const testLayer = (answer: (request: OutboundHttp.OutboundRequest) => OutboundHttp.OutboundResponse) =>
  ToolExecutor.layer.pipe(
    Layer.provideMerge(outbound(answer)),
    Layer.provideMerge(IntegrationProvider.layerNone),
    Layer.provideMerge(Sent.Default),
    Layer.provideMerge(engine)
  )

const createTool = (organizationId: Parameters<Tools["Type"]["create"]>[0], definition: unknown) =>
  Effect.flatMap(Tools, (tools) =>
    tools.create(organizationId, Schema.decodeUnknownSync(CreateToolRequest)({ name: "Tool", definition }))
  )

describe("ToolExecutor", () => {
  it.effect(
    "gives the outbound client the tool's deadline (default 5000, clamped to 30000) and the 256 KiB cap",
    () =>
      Effect.gen(function* () {
        const organization = yield* Fixtures.organization()
        const executor = yield* ToolExecutor.ToolExecutor
        for (const [timeout_ms, expected] of [
          [undefined, 5000],
          [1200, 1200],
          [120_000, 30_000]
        ] as const) {
          const tool = yield* createTool(organization.id, {
            type: "http_api",
            config: {
              method: "GET",
              url: "https://api.example.com/x",
              ...(timeout_ms === undefined ? {} : { timeout_ms })
            }
          })
          const result = yield* executor.test(organization.id, tool.tool_uuid, {})
          expect(result).toMatchObject({ ok: true, response: { fine: true } })
          const request = (yield* Ref.get(yield* Sent)).at(-1)!
          expect([request.timeout, request.maxResponseBytes]).toEqual([expected, 256 * 1024])
        }
      }).pipe(Effect.provide(testLayer(() => json({ fine: true }))))
  )

  it.effect("adds the credential's header, and scrubs its secret from what the receiver echoed", () =>
    Effect.gen(function* () {
      const organization = yield* Fixtures.organization()
      const credential = yield* Effect.flatMap(Credentials, (credentials) =>
        credentials.create(organization.id, { name: "Token", kind: "bearer", secret: "the-secret-value" })
      )
      const tool = yield* createTool(organization.id, {
        type: "http_api",
        config: {
          method: "POST",
          url: "https://api.example.com/x",
          credential_uuid: credential.credential_uuid
        }
      })
      const result = yield* Effect.flatMap(ToolExecutor.ToolExecutor, (executor) =>
        executor.test(organization.id, tool.tool_uuid, {})
      )
      const request = (yield* Ref.get(yield* Sent)).at(-1)!
      expect(request.headers["authorization"]).toBe("Bearer the-secret-value")
      expect(result.response).toEqual({ echoed: "****", inside: "token=****" })
      expect(JSON.stringify(result)).not.toContain("the-secret-value")
    }).pipe(
      Effect.provide(
        testLayer((request) =>
          json({
            echoed: request.headers["authorization"],
            inside: `token=${request.headers["authorization"]!.slice("Bearer ".length)}`
          })
        )
      )
    )
  )

  it.effect("refuses an integration tool when no provider is installed, and sends nothing", () =>
    Effect.gen(function* () {
      const organization = yield* Fixtures.organization()
      const tool = yield* createTool(organization.id, {
        type: "integration",
        config: { provider: "weather" }
      })
      const failure = yield* Effect.flip(
        Effect.flatMap(ToolExecutor.ToolExecutor, (executor) =>
          executor.test(organization.id, tool.tool_uuid, {})
        )
      )
      expect(failure._tag).toBe("IntegrationProviderMissing")
      expect(yield* Ref.get(yield* Sent)).toHaveLength(0)
    }).pipe(Effect.provide(testLayer(() => json({}))))
  )
})
