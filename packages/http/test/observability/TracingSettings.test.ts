import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Duration, Effect, Option, Redacted } from "effect"
import * as Tracing from "../../src/observability/Tracing.js"

const read = (env: Record<string, string>) =>
  Effect.withConfigProvider(Tracing.config, ConfigProvider.fromMap(new Map(Object.entries(env))))

describe("Tracing settings (OTEL_*)", () => {
  it.effect(
    "none without OTEL_EXPORTER_OTLP_ENDPOINT; with it, the traces URL, service name, headers, delay",
    () =>
      Effect.gen(function* () {
        expect(Option.isNone(yield* read({}))).toBe(true)
        const defaults = Option.getOrThrow(
          yield* read({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318/" })
        )
        expect(defaults.url).toBe("http://collector:4318/v1/traces")
        expect(defaults.serviceName).toBe("voice-agent-platform")
        expect(Redacted.value(defaults.headers)).toEqual({})
        expect(Duration.toMillis(defaults.exportInterval)).toBe(5000)
        const set = Option.getOrThrow(
          yield* read({
            OTEL_EXPORTER_OTLP_ENDPOINT: "https://otel.example.com/base",
            OTEL_SERVICE_NAME: "calls-eu",
            OTEL_EXPORTER_OTLP_HEADERS: "Authorization=Bearer%20abc, x-tenant = eu",
            OTEL_BSP_SCHEDULE_DELAY: "250"
          })
        )
        expect(set.url).toBe("https://otel.example.com/base/v1/traces")
        expect(set.serviceName).toBe("calls-eu")
        expect(Redacted.value(set.headers)).toEqual({ authorization: "Bearer abc", "x-tenant": "eu" })
        expect(String(set.headers)).not.toContain("abc")
        expect(Duration.toMillis(set.exportInterval)).toBe(250)
        expect(yield* Effect.flip(read({ OTEL_EXPORTER_OTLP_ENDPOINT: "not a url" }))).toBeDefined()
        // empty: tracing off, as unset; a malformed header escape: a clear configuration error, not a throw
        expect(Option.isNone(yield* read({ OTEL_EXPORTER_OTLP_ENDPOINT: "" }))).toBe(true)
        const malformed = yield* Effect.flip(
          read({
            OTEL_EXPORTER_OTLP_ENDPOINT: "http://c",
            OTEL_EXPORTER_OTLP_HEADERS: "authorization=%E0%A4%A"
          })
        )
        expect(String(malformed)).toContain("OTEL_EXPORTER_OTLP_HEADERS must be key=value pairs")
        expect(
          yield* Effect.flip(read({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c", OTEL_BSP_SCHEDULE_DELAY: "0" }))
        ).toBeDefined()
      })
  )

  it.effect("without settings every span is a no-op: nothing is sampled or recorded", () =>
    Effect.gen(function* () {
      const run = Effect.fn("Example.run")(() => Effect.currentSpan)
      const traced = yield* run()
      expect(traced.name).toBe("Example.run")
      expect(traced.sampled).toBe(true)
      const untraced = yield* run().pipe(Effect.provide(Tracing.layer(Option.none())))
      expect(untraced.sampled).toBe(false)
    })
  )
})
