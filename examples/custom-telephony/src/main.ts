import {
  Agents,
  CallPlacement,
  CallScript,
  InMemory,
  Organizations,
  PriceListConfig,
  Runs,
  SecureRandom,
  Services
} from "@voice-agent-platform/core"
import * as MemoryBlobStore from "@voice-agent-platform/core/memory/MemoryBlobStore.js"
import { Config, Effect, Layer, Schedule, Schema } from "effect"
import * as EchoTelephony from "./EchoTelephony.js"

/** The engine over your own voice runtime: every service, the in-memory stores and files, and `EchoTelephony`. */
const Engine = Services.layer.pipe(
  Layer.provideMerge(EchoTelephony.layer),
  Layer.provideMerge(
    Layer.mergeAll(
      InMemory.layerStores,
      MemoryBlobStore.layer,
      SecureRandom.layerWebCrypto,
      PriceListConfig.layerDefault
    )
  )
)

const program = Effect.gen(function* () {
  const phoneNumber = yield* Config.string("PHONE_NUMBER").pipe(Config.withDefault("+48 500 100 200"))
  const { organization } = yield* (yield* Organizations.Organizations).create({ name: "Echo" })
  const { agent } = yield* (yield* Agents.Agents).createFromScript(
    organization.id,
    Schema.decodeUnknownSync(CallScript.CallScriptRequest)({ agent: { greeting: "Hello from the engine." } })
  )
  const calls = yield* CallPlacement.CallPlacement
  const refused = yield* Effect.flip(
    calls.place({
      organizationId: organization.id,
      agent: agent.public_id,
      phone_number: phoneNumber.replace(/\d{4}$/, "0000")
    })
  )
  console.log(`refused: ${refused.message}`)
  const run = yield* calls.place({
    organizationId: organization.id,
    agent: agent.public_id,
    phone_number: phoneNumber
  })
  const runs = yield* Runs.Runs
  const ended = yield* runs.get(organization.id, agent.public_id, run.workflow_run_id).pipe(
    Effect.filterOrFail(
      (current) => !["queued", "ringing", "in_progress"].includes(current.status),
      () => new Error("the call has not ended")
    ),
    Effect.retry(Schedule.spaced("100 millis").pipe(Schedule.compose(Schedule.recurs(100))))
  )
  console.log(`the call ended ${ended.status}, gathered ${JSON.stringify(ended.gathered_context)}`)
  const transcript = yield* runs.transcript(organization.id, agent.public_id, run.workflow_run_id)
  for (const turn of transcript.turns) console.log(`${turn.role}: ${turn.text}`)
})

Effect.runPromise(Effect.scoped(program).pipe(Effect.provide(Engine))).catch((error) => {
  console.error(error)
  process.exit(1)
})
