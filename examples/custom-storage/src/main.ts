import {
  CallPlacement,
  DoNotCallList,
  InMemory,
  Organizations,
  Page,
  PriceListConfig,
  SecureRandom,
  Services,
  SimulatedTelephony,
  Agents,
  CallScript
} from "@voice-agent-platform/core"
import * as MemoryBlobStore from "@voice-agent-platform/core/memory/MemoryBlobStore.js"
import { Config, Effect, Layer, Schema } from "effect"
import * as FileDoNotCallStore from "./FileDoNotCallStore.js"

/**
 * The engine with one port swapped for your own adapter: the stores in memory, but the Do not call list
 * in a JSON file (`DNC_FILE`, default `./do-not-call.json`). The later layer of a merge wins.
 */
const Engine = Layer.unwrapEffect(
  Effect.map(Config.string("DNC_FILE").pipe(Config.withDefault("./do-not-call.json")), (file) =>
    Services.layer.pipe(
      Layer.provideMerge(SimulatedTelephony.layer),
      Layer.provideMerge(
        Layer.mergeAll(
          Layer.merge(InMemory.layerStores, FileDoNotCallStore.layer(file)),
          MemoryBlobStore.layer,
          SecureRandom.layerWebCrypto,
          PriceListConfig.layerDefault
        )
      )
    )
  )
)

const program = Effect.gen(function* () {
  const { organization } = yield* (yield* Organizations.Organizations).create({ name: "Compliance" })
  const list = yield* DoNotCallList.DoNotCallList
  yield* list.add(organization.id, { phone_number: "+48 500 100 200", reason: "asked not to be called" })
  const page = yield* list.list(organization.id, Page.firstPage)
  for (const entry of page.items) console.log(`do not call ${entry.phone_number} (${entry.reason})`)
  const { agent } = yield* (yield* Agents.Agents).createFromScript(
    organization.id,
    Schema.decodeUnknownSync(CallScript.CallScriptRequest)({ agent: { greeting: "Hello." } })
  )
  const refused = yield* Effect.flip(
    (yield* CallPlacement.CallPlacement).place({
      organizationId: organization.id,
      agent: agent.public_id,
      phone_number: "+48500100200"
    })
  )
  console.log(`placing a call to it: ${refused.message}`)
})

Effect.runPromise(Effect.scoped(program).pipe(Effect.provide(Engine))).catch((error) => {
  console.error(error)
  process.exit(1)
})
