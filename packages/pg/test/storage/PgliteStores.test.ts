import { storeContract } from "@voice-agent-platform/core/testing"
import { Layer } from "effect"
import * as PgStorage from "../../src/storage/PgStorage.js"
import { layerEmbedded, layerSecretBox } from "../../testing/TestDatabase.js"

storeContract("PGlite", PgStorage.layer.pipe(Layer.provide(Layer.merge(layerEmbedded, layerSecretBox))))
