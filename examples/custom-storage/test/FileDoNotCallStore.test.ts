import { describe, expect, it } from "@effect/vitest"
import { DoNotCallStore, InMemory, Organization } from "@voice-agent-platform/core"
import { storeContract } from "@voice-agent-platform/core/testing"
import { Effect, Layer, Option } from "effect"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as FileDoNotCallStore from "../src/FileDoNotCallStore.js"

const file = () => join(mkdtempSync(join(tmpdir(), "vap-example-dnc-")), "do-not-call.json")

// The shared storage contract, run against the in-memory stores with this adapter in place of theirs.
storeContract(
  "in memory, the Do not call list in a JSON file",
  Layer.merge(InMemory.layerStores, FileDoNotCallStore.layer(file()))
)

describe("FileDoNotCallStore", () => {
  it.effect("keeps the list in its file: a new adapter on the same file finds it", () =>
    Effect.gen(function* () {
      const path = file()
      const organization = Organization.OrganizationId.make(7)
      const entry = {
        organization_id: organization,
        phone_number: "+48500100200",
        reason: "asked",
        created_at: new Date(0)
      }
      yield* Effect.flatMap(DoNotCallStore.DoNotCallStore, (store) => store.add(entry)).pipe(
        Effect.provide(FileDoNotCallStore.layer(path))
      )
      const found = yield* Effect.flatMap(DoNotCallStore.DoNotCallStore, (store) =>
        store.find(organization, "+48500100200")
      ).pipe(Effect.provide(FileDoNotCallStore.layer(path)))
      expect(Option.getOrThrow(found)).toEqual(entry)
    })
  )
})
