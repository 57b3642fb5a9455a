// What a core operation's span costs a call, in-process (no HTTP, no database). Run:
// `node --conditions=@voice-agent-platform/source --import tsx bench/operation-spans.ts [calls]`.
// Each variant is one operation (a generator yielding one `Effect.succeed`) called `calls` times
// (100,000 by default) in one fiber; the variants take turns, 7 rounds, and the median CPU time a call
// is printed, less the same operation without a span. Twice: with tracing off
// (`Layer.setTracerEnabled(false)`, the bundled server without `OTEL_EXPORTER_OTLP_ENDPOINT`) and
// with Effect's default tracer (spans made and dropped; an exporter adds its own cost on top).
import { Effect, Layer } from "effect"
import { loadavg } from "node:os"
import * as OperationSpans from "@voice-agent-platform/core/observability/OperationSpans.js"
import * as SpanAttributes from "@voice-agent-platform/core/observability/SpanAttributes.js"

const calls = Number(process.argv[2] ?? 100_000)
const rounds = 7

const body = function* (n: number) {
  return yield* Effect.succeed(n + 1)
}

type Operation = (n: number) => Effect.Effect<number>

const variants: ReadonlyArray<readonly [string, Operation]> = [
  ["no span", (n) => Effect.gen(() => body(n))],
  [
    // what `withOperationSpans` (the reflective helper the services used before) did around each call
    "Effect.withSpan per call, captureStackTrace: false (withOperationSpans)",
    (n) =>
      Effect.withSpan(
        Effect.gen(() => body(n)),
        "Bench.get",
        { captureStackTrace: false }
      )
  ],
  ['Effect.fn("Bench.get")', Effect.fn("Bench.get")(body)],
  [
    'Effect.fn("Bench.get", { captureStackTrace: false })',
    Effect.fn("Bench.get", { captureStackTrace: false })(body)
  ],
  [
    'Effect.fn("Bench.get")(body, SpanAttributes.organization)',
    Effect.fn("Bench.get")(body, SpanAttributes.organization)
  ],
  [
    // what the engine's operations use: the span (and its stack capture) only while tracing is on
    'OperationSpans.fn("Bench.get")(body, SpanAttributes.organization)',
    OperationSpans.fn("Bench.get")(body, SpanAttributes.organization)
  ],
  [
    'Effect.fnUntraced + Effect.withSpan("Bench.get", { captureStackTrace: false })',
    Effect.fnUntraced(body, Effect.withSpan("Bench.get", { captureStackTrace: false }))
  ]
]

const loop = (operation: Operation) =>
  Effect.suspend(() => {
    let i = 0
    return Effect.whileLoop({
      while: () => i < calls,
      body: () => operation(i++),
      step: () => {}
    })
  })

const measure = async (operation: Operation, layer: Layer.Layer<never>) => {
  const program = Effect.provide(loop(operation), layer)
  const before = process.cpuUsage()
  await Effect.runPromise(program)
  const used = process.cpuUsage(before)
  return ((used.user + used.system) * 1000) / calls // ns a call
}

const median = (values: ReadonlyArray<number>) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

const run = async (label: string, layer: Layer.Layer<never>) => {
  for (const [, operation] of variants) await measure(operation, layer) // warm-up
  const samples = variants.map(() => [] as Array<number>)
  for (let round = 0; round < rounds; round++)
    for (const [index, [, operation]] of variants.entries())
      samples[index]!.push(await measure(operation, layer))
  const baseline = median(samples[0]!)
  console.log(`\n${label} (${calls.toLocaleString("en")} calls × ${rounds} rounds, median CPU a call)`)
  for (const [index, [name]] of variants.entries()) {
    const ns = median(samples[index]!)
    const extra = index === 0 ? "" : `  (+${(ns - baseline).toFixed(0)} ns over no span)`
    console.log(`  ${name.padEnd(82)} ${ns.toFixed(0).padStart(6)} ns${extra}`)
  }
}

console.log(
  `load average ${loadavg()
    .map((n) => n.toFixed(2))
    .join(" ")}`
)
await run("tracing off (Layer.setTracerEnabled(false))", Layer.setTracerEnabled(false))
await run("Effect's default tracer", Layer.empty)
console.log(
  `load average ${loadavg()
    .map((n) => n.toFixed(2))
    .join(" ")}`
)
