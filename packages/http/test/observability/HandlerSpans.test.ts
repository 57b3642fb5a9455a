import { HttpClientRequest } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Option, Tracer } from "effect"
import { json, organization, rawClient, send, TestServer } from "../support/TestServer.js"

/** Every span started in the server, by name, with the name of its parent span. */
const started: Array<{ readonly name: string; readonly parent: string | undefined }> = []

/** The default tracer, noting each span it starts. */
const RecordingTracer = Layer.unwrapEffect(
  Effect.map(Effect.tracer, (native) =>
    Layer.setTracer(
      Tracer.make({
        span: (name, parent, context, links, startTime, kind, options) => {
          const parentName = Option.match(parent, {
            onNone: () => undefined,
            onSome: (span) => (span._tag === "Span" ? span.name : undefined)
          })
          started.push({ name, parent: parentName })
          return native.span(name, parent, context, links, startTime, kind, options)
        },
        context: native.context
      })
    )
  )
)

const spansNamed = (name: string) => started.filter((span) => span.name === name)

describe("handler spans", () => {
  it.effect("each handler runs in a span named Group.operation, a child of the request's server span", () =>
    Effect.gen(function* () {
      const client = yield* rawClient((yield* organization()).apiKey)
      const added = yield* send(client, json("POST", "/api/v1/do-not-call", { phone_number: "+48500100200" }))
      expect(added.status).toBe(200)
      expect((yield* send(client, HttpClientRequest.get("/api/v1/do-not-call"))).status).toBe(200)
      // Failing handlers are traced too: an unknown agent, an unknown campaign (a status action).
      const call = yield* send(
        client,
        json("POST", "/api/v1/agents/agent_unknown/calls", { phone_number: "+48500100201" })
      )
      expect(call.status).toBe(404)
      expect((yield* send(client, json("POST", "/api/v1/campaigns/123/start", {}))).status).toBe(404)

      for (const name of ["DoNotCall.add", "DoNotCall.list", "Calls.placeWithAgent", "Campaigns.start"]) {
        const spans = spansNamed(name)
        expect(spans, name).toHaveLength(1)
        expect(spans[0]!.parent, name).toMatch(/^(GET|POST|PATCH|DELETE|PUT) \/api\/v1\//)
      }
    }).pipe(Effect.provide(TestServer.pipe(Layer.provide(RecordingTracer))))
  )
})
