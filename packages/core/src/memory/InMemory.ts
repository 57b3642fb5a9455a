import { Layer } from "effect"
import type { Stores } from "../storage/Stores.js"
import * as PriceListConfig from "../phone-numbers/PriceListConfig.js"
import * as SecureRandom from "../randomness/SecureRandom.js"
import * as Services from "../Services.js"
import * as SimulatedEngine from "../SimulatedEngine.js"
import * as EmbeddedModel from "../language-model/embedded/EmbeddedModel.js"
import type { LanguageModel } from "../language-model/LanguageModel.js"
import * as MemoryAgentStore from "./MemoryAgentStore.js"
import * as MemoryAnalysisJobStore from "./MemoryAnalysisJobStore.js"
import * as MemoryBlobStore from "./MemoryBlobStore.js"
import * as MemoryTelephony from "./MemoryTelephony.js"
import * as MemoryCallFragmentStore from "./MemoryCallFragmentStore.js"
import * as MemoryCampaignStore from "./MemoryCampaignStore.js"
import * as MemoryChannelStore from "./MemoryChannelStore.js"
import * as MemoryDatabase from "./MemoryDatabase.js"
import * as MemoryDocumentStore from "./MemoryDocumentStore.js"
import * as MemoryDoNotCallStore from "./MemoryDoNotCallStore.js"
import * as MemoryIdempotencyStore from "./MemoryIdempotencyStore.js"
import * as MemoryImprovementStore from "./MemoryImprovementStore.js"
import * as MemoryIntegrationStore from "./MemoryIntegrationStore.js"
import * as MemoryOrganizationStore from "./MemoryOrganizationStore.js"
import * as MemoryPhoneNumberStore from "./MemoryPhoneNumberStore.js"
import * as MemoryRunStore from "./MemoryRunStore.js"
import * as MemoryToolStore from "./MemoryToolStore.js"
import * as MemoryTriggerStore from "./MemoryTriggerStore.js"
import * as MemoryUsageStore from "./MemoryUsageStore.js"
import * as MemoryWebhookStore from "./MemoryWebhookStore.js"

/** Every storage port over one fresh in-memory database. */
export const layerStores: Layer.Layer<Stores> = Layer.mergeAll(
  MemoryDatabase.layerTransactions,
  MemoryOrganizationStore.layerOrganizations,
  MemoryOrganizationStore.layerApiKeys,
  MemoryAgentStore.layer,
  MemoryImprovementStore.layer,
  MemoryRunStore.layer,
  MemoryChannelStore.layer,
  MemoryCallFragmentStore.layer,
  MemoryDoNotCallStore.layer,
  MemoryPhoneNumberStore.layer,
  MemoryToolStore.layerTools,
  MemoryToolStore.layerCredentials,
  MemoryDocumentStore.layer,
  MemoryCampaignStore.layer,
  MemoryUsageStore.layer,
  MemoryIntegrationStore.layer,
  MemoryTriggerStore.layer,
  MemoryIdempotencyStore.layer,
  MemoryWebhookStore.layer,
  MemoryAnalysisJobStore.layer
).pipe(Layer.provide(MemoryDatabase.layer))

/**
 * The whole engine in memory with the given language model: every store, files in memory, a telephony that
 * records the calls handed to it, Web Crypto randomness and the default price list.
 */
export const layerWithModel = <ROut extends LanguageModel, E, R>(model: Layer.Layer<ROut, E, R>) =>
  Services.layer.pipe(
    Layer.provideMerge(
      Layer.mergeAll(
        layerStores,
        MemoryBlobStore.layer,
        MemoryTelephony.layer,
        model,
        SecureRandom.layerWebCrypto,
        PriceListConfig.layerDefault
      )
    )
  )

/**
 * The whole engine in memory (`layerWithModel`) with the embedded rule-based language model. For tests and
 * for trying the engine out.
 */
export const layer = layerWithModel(EmbeddedModel.layer)

/**
 * The whole engine in memory with the built-in simulated voice runtime: placed calls ring, talk and end
 * (`SimulatedTelephony`, timed by `SimulationConfig`), leaving transcripts, recordings and usage behind.
 */
export const layerSimulated = SimulatedEngine.layer(layerStores, MemoryBlobStore.layer)

/**
 * As `layerSimulated`, with simulated calls that run the agent's HTTP API tools (the caller asks for each
 * tool that has trigger phrases) through the `OutboundHttp` the host provides. The embedding default.
 */
export const layerSimulatedWithTools = SimulatedEngine.layerWithTools(layerStores, MemoryBlobStore.layer)
