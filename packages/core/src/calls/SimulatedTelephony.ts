import { Cause, Clock, Duration, Effect, FiberSet, Layer, Option } from "effect"
import * as IntegrationProvider from "../tools/IntegrationProvider.js"
import * as ToolExecutor from "../tools/ToolExecutor.js"
import * as Tools from "../tools/Tools.js"
import * as Agents from "../agents/Agents.js"
import type { CallEvent } from "./CallEvents.js"
import * as CallEvents from "./CallEvents.js"
import * as RuntimeTools from "./RuntimeTools.js"
import * as SimulatedCall from "./SimulatedCall.js"
import * as SimulatedToolCalls from "./SimulatedToolCalls.js"
import { SimulationConfig } from "./SimulationConfig.js"
import type { OutboundCall } from "./Telephony.js"
import { Telephony } from "./Telephony.js"
import * as WavFile from "./WavFile.js"

/**
 * The built-in voice runtime: every placed call plays a `SimulatedCall` script in a fiber of its own,
 * reporting through `CallEvents`, timed by Effect's `Clock` (so `TestClock` drives it in tests). Its
 * length is `SimulationConfig.call_seconds`.
 *
 * With a `RuntimeTools` in its context (`layerWithTools`), a call asks for the agent's HTTP API tools
 * that have trigger phrases and calls them through it, exactly as an out-of-process runtime calls
 * `POST /runtime/v1/runs/{run_id}/tool-calls`; without one, calls use no tools.
 *
 * The call fibers belong to the layer: when the layer's scope closes (the server shuts down), calls still
 * running are interrupted, and each reports a warning log and `ended failed` with the talk time so far, so
 * that no run is left live holding a channel.
 */
export const make = Effect.gen(function* () {
  const events = yield* CallEvents.CallEvents
  const { call_seconds } = yield* SimulationConfig
  const runtimeTools = yield* Effect.serviceOption(RuntimeTools.RuntimeTools)
  // Forks into the layer's scope with the layer's context, not the caller's (an HTTP request).
  const run = yield* FiberSet.makeRuntime<never, void, never>()

  const simulate = (call: OutboundCall) => {
    const { organization_id: organizationId, workflow_run_id: runId } = call.run
    const report = (event: CallEvent) => events.report(organizationId, runId, event)
    let answeredAt: number | null = null
    let ended = false

    /** The tools of the run's agent version the caller will ask for; none without `RuntimeTools`. */
    const tools = Option.match(runtimeTools, {
      onNone: () => Effect.succeed([]),
      onSome: (service) =>
        service.agentOf(runId).pipe(
          Effect.map((version) => SimulatedToolCalls.usableTools(version.tools)),
          Effect.orElseSucceed(() => [])
        )
    })

    /**
     * A tool call through the runtime's path; a refusal is logged on the run, and so is a defect (told to
     * the operator's log in full, to the run's only as a failure): a tool never ends the call.
     */
    const callTool = (toolUuid: string, args: Readonly<Record<string, unknown>>) =>
      Option.match(runtimeTools, {
        onNone: () => Effect.void,
        onSome: (service) =>
          service.call(runId, toolUuid, args).pipe(
            Effect.asVoid,
            Effect.catchAllCause((cause) =>
              Option.match(Cause.failureOption(cause), {
                onSome: (refusal) =>
                  report({ type: "log", level: "warning", message: `Tool call refused: ${refusal.message}` }),
                onNone: () =>
                  Effect.logError(`simulated call ${runId}: tool ${toolUuid} failed`, cause).pipe(
                    Effect.zipRight(
                      report({ type: "log", level: "error", message: "Tool call failed: an internal error" })
                    )
                  )
              })
            )
          )
      })

    const play = Effect.gen(function* () {
      const usable = yield* tools
      const placedAt = yield* Clock.currentTimeMillis
      const steps = SimulatedCall.script(
        SimulatedCall.inputOf(call, call_seconds, new Date(placedAt), usable)
      )
      for (const { at_ms, event } of steps) {
        const wait = placedAt + at_ms - (yield* Clock.currentTimeMillis)
        if (wait > 0) yield* Effect.sleep(Duration.millis(wait))
        const now = yield* Clock.currentTimeMillis
        switch (event.type) {
          case "fragment":
            yield* report({ ...event, timestamp: new Date(now) })
            break
          case "recording":
            yield* report({ type: "recording", bytes: WavFile.generate(event.seconds) })
            break
          case "tool_call":
            yield* callTool(event.tool_uuid, event.arguments)
            break
          default:
            if (event.type === "answered") answeredAt = now
            if (event.type === "ended") ended = true
            yield* report(event)
        }
      }
    })

    /** The runtime stops mid-call: the call is cut, and says so. */
    const cut = Effect.gen(function* () {
      if (ended) return
      const now = yield* Clock.currentTimeMillis
      yield* report({ type: "log", level: "warning", message: "The voice runtime stopped during the call" })
      yield* report({
        type: "ended",
        status: "failed",
        duration_seconds: answeredAt === null ? 0 : (now - answeredAt) / 1000
      })
    }).pipe(Effect.ignore)

    // A call whose run was ended by someone else (or removed) simply stops: there is nothing left to report.
    return play.pipe(
      Effect.onInterrupt(() => cut),
      Effect.catchAll((error) =>
        Effect.logDebug(`simulated call ${runId} stopped: ${error.message}`).pipe(Effect.asVoid)
      )
    )
  }

  return Telephony.of({
    placeCall: (call) =>
      Effect.sync(() => {
        run(simulate(call))
      })
  })
})

/** The simulated runtime over `CallEvents` from the environment. */
export const layerWithEvents: Layer.Layer<Telephony, never, CallEvents.CallEvents> = Layer.scoped(
  Telephony,
  make
)

/**
 * The simulated runtime over the host's stores, file storage and configuration; it reports through a
 * `CallEvents` of its own (the service is stateless: everything it keeps is in storage).
 */
export const layer = layerWithEvents.pipe(Layer.provide(CallEvents.layer))

/**
 * The simulated runtime whose calls use the agent's tools, through `RuntimeTools` over a `ToolExecutor`
 * built here (no integration provider: integration tools are not called by simulations). It needs the
 * host's stores and the one guarded outbound client (`OutboundHttp`).
 */
export const layerWithTools = layer.pipe(
  Layer.provide(RuntimeTools.layer),
  Layer.provide(ToolExecutor.layer),
  Layer.provide(IntegrationProvider.layerNone),
  Layer.provide(Layer.merge(Tools.layer, Agents.layer))
)
