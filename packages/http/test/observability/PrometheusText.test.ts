import { describe, expect, it } from "@effect/vitest"
import { Effect, Metric, MetricBoundaries } from "effect"
import * as LogLines from "../../src/observability/LogLines.js"
import * as PrometheusText from "../../src/observability/PrometheusText.js"

describe("PrometheusText.render", () => {
  it.effect("writes counters, gauges and histograms with escaped labels, one HELP and TYPE per name", () =>
    Effect.gen(function* () {
      const counter = Metric.counter("prom_test_requests_total", {
        description: "Requests",
        incremental: true
      })
      yield* Metric.increment(Metric.tagged(counter, "route", '/a/"b"\\c'))
      yield* Metric.incrementBy(Metric.tagged(counter, "route", "/d"), 2)
      yield* Metric.set(Metric.gauge("prom_test_in_use"), 3)
      // a counter that may go down (as Effect's effect_fiber_active) is a gauge to Prometheus
      yield* Metric.incrementBy(Metric.counter("prom_test_active"), 2)
      const histogram = Metric.histogram("prom_test_seconds", MetricBoundaries.fromIterable([0.1, 1]))
      yield* Metric.update(histogram, 0.05)
      yield* Metric.update(histogram, 0.5)
      yield* Metric.update(histogram, 5)
      const text = PrometheusText.render(
        (yield* Metric.snapshot).filter((pair) => pair.metricKey.name.startsWith("prom_test_"))
      )
      expect(text.match(/# TYPE prom_test_requests_total counter/g)).toHaveLength(1)
      expect(text).toContain("# HELP prom_test_requests_total Requests\n")
      expect(text).toContain('prom_test_requests_total{route="/a/\\"b\\"\\\\c"} 1\n')
      expect(text).toContain('prom_test_requests_total{route="/d"} 2\n')
      expect(text).toContain("# TYPE prom_test_in_use gauge\nprom_test_in_use 3\n")
      expect(text).toContain("# TYPE prom_test_active gauge\nprom_test_active 2\n")
      expect(text).toContain("# TYPE prom_test_seconds histogram\n")
      expect(text).toContain('prom_test_seconds_bucket{le="0.1"} 1\n')
      expect(text).toContain('prom_test_seconds_bucket{le="1"} 2\n')
      expect(text).toContain('prom_test_seconds_bucket{le="+Inf"} 3\n')
      expect(text).toContain("prom_test_seconds_sum 5.55\n")
      expect(text).toContain("prom_test_seconds_count 3\n")
    })
  )
})

describe("LogLines.format", () => {
  const line = {
    time: new Date("2026-11-24T03:00:00.000Z"),
    level: "INFO",
    message: "request",
    fields: {
      request_id: "abc-123-def",
      route: "/api/v1/agents/{agent_id}",
      status: 200,
      organization_id: undefined
    }
  }

  it("writes JSON lines with the fields flat, and leaves out what is undefined", () => {
    expect(JSON.parse(LogLines.format("json", line))).toEqual({
      time: "2026-11-24T03:00:00.000Z",
      level: "INFO",
      message: "request",
      request_id: "abc-123-def",
      route: "/api/v1/agents/{agent_id}",
      status: 200
    })
  })

  it("writes readable lines, quoting a value with spaces", () => {
    expect(LogLines.format("text", line)).toBe(
      "2026-11-24T03:00:00.000Z INFO  request request_id=abc-123-def route=/api/v1/agents/{agent_id} status=200"
    )
    expect(LogLines.format("text", { ...line, fields: { detail: 'a "b" c' } })).toContain(
      'detail="a \\"b\\" c"'
    )
  })
})
