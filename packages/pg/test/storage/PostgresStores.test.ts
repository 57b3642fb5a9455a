import { describe, it } from "@effect/vitest"
import { storeContract } from "@voice-agent-platform/core/testing"
import { Layer } from "effect"
import * as PgStorage from "../../src/storage/PgStorage.js"
import {
  layerFreshDatabase,
  layerSecretBox,
  serverReachable,
  warnUnreachable
} from "../../testing/TestDatabase.js"

if (await serverReachable()) {
  storeContract(
    "PostgreSQL",
    PgStorage.layer.pipe(Layer.provide(Layer.merge(layerFreshDatabase, layerSecretBox)))
  )
} else {
  warnUnreachable("the storage contract on PostgreSQL")
  describe.skip("storage contract: PostgreSQL (server not reachable)", () => {
    it("runs against a PostgreSQL server", () => {})
  })
}
