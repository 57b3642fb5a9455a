import { Layer } from "effect"
import type { Telephony } from "./calls/Telephony.js"
import * as SimulatedTelephony from "./calls/SimulatedTelephony.js"
import type { BlobStore } from "./files/BlobStore.js"
import * as EmbeddedModel from "./language-model/embedded/EmbeddedModel.js"
import type { LanguageModel } from "./language-model/LanguageModel.js"
import * as PriceListConfig from "./phone-numbers/PriceListConfig.js"
import * as SecureRandom from "./randomness/SecureRandom.js"
import * as Services from "./Services.js"
import type { Stores } from "./storage/Stores.js"

/**
 * The whole engine with the built-in simulated voice runtime (placed calls ring, talk and end, leaving
 * transcripts, recordings and usage behind) over the storage and files the host gives: the in-memory
 * stores, or the SQL ones of `@voice-agent-platform/pg`. Web Crypto randomness and the default price list;
 * the language model the host gives, else the embedded rule-based stand-in.
 */
export const layer = <E1, R1, E2, R2, E3 = never, R3 = never>(
  stores: Layer.Layer<Stores, E1, R1>,
  files: Layer.Layer<BlobStore, E2, R2>,
  model: Layer.Layer<LanguageModel, E3, R3> = EmbeddedModel.layer as Layer.Layer<LanguageModel, E3, R3>
) =>
  Services.layer.pipe(
    Layer.provideMerge(SimulatedTelephony.layer),
    Layer.provideMerge(
      Layer.mergeAll(stores, files, model, SecureRandom.layerWebCrypto, PriceListConfig.layerDefault)
    )
  )

/**
 * As `layer`, with simulated calls that use the agent's HTTP API tools (the caller asks for each tool that
 * has trigger phrases; the tool runs through `RuntimeTools`, its call kept in the run's logs). Tool
 * requests go out through the `OutboundHttp` the host provides (the bundled server's guarded client).
 */
export const layerWithTools = <E1, R1, E2, R2, E3 = never, R3 = never>(
  stores: Layer.Layer<Stores, E1, R1>,
  files: Layer.Layer<BlobStore, E2, R2>,
  model: Layer.Layer<LanguageModel, E3, R3> = EmbeddedModel.layer as Layer.Layer<LanguageModel, E3, R3>
) =>
  Services.layer.pipe(
    Layer.provideMerge(SimulatedTelephony.layerWithTools),
    Layer.provideMerge(
      Layer.mergeAll(stores, files, model, SecureRandom.layerWebCrypto, PriceListConfig.layerDefault)
    )
  )

/**
 * The whole engine over the telephony the host gives (`CarrierTelephony` for real calls) instead of the
 * simulator, with the same storage, files, randomness and price list as `layer`.
 */
export const layerWithTelephony = <E0, R0, E1, R1, E2, R2, E3 = never, R3 = never>(
  telephony: Layer.Layer<Telephony, E0, R0>,
  stores: Layer.Layer<Stores, E1, R1>,
  files: Layer.Layer<BlobStore, E2, R2>,
  model: Layer.Layer<LanguageModel, E3, R3> = EmbeddedModel.layer as Layer.Layer<LanguageModel, E3, R3>
) =>
  Services.layer.pipe(
    Layer.provideMerge(telephony),
    Layer.provideMerge(
      Layer.mergeAll(stores, files, model, SecureRandom.layerWebCrypto, PriceListConfig.layerDefault)
    )
  )
