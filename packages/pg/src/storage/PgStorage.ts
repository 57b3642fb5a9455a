import type { SqlClient } from "@effect/sql"
import * as MemoryAgentStore from "@voice-agent-platform/core/memory/MemoryAgentStore.js"
import * as MemoryCallFragmentStore from "@voice-agent-platform/core/memory/MemoryCallFragmentStore.js"
import * as MemoryCampaignStore from "@voice-agent-platform/core/memory/MemoryCampaignStore.js"
import * as MemoryChannelStore from "@voice-agent-platform/core/memory/MemoryChannelStore.js"
import * as MemoryDoNotCallStore from "@voice-agent-platform/core/memory/MemoryDoNotCallStore.js"
import * as MemoryDocumentStore from "@voice-agent-platform/core/memory/MemoryDocumentStore.js"
import * as MemoryIdempotencyStore from "@voice-agent-platform/core/memory/MemoryIdempotencyStore.js"
import * as MemoryImprovementStore from "@voice-agent-platform/core/memory/MemoryImprovementStore.js"
import * as MemoryIntegrationStore from "@voice-agent-platform/core/memory/MemoryIntegrationStore.js"
import * as MemoryPhoneNumberStore from "@voice-agent-platform/core/memory/MemoryPhoneNumberStore.js"
import * as MemoryRunStore from "@voice-agent-platform/core/memory/MemoryRunStore.js"
import * as MemoryToolStore from "@voice-agent-platform/core/memory/MemoryToolStore.js"
import * as MemoryTriggerStore from "@voice-agent-platform/core/memory/MemoryTriggerStore.js"
import * as MemoryUsageStore from "@voice-agent-platform/core/memory/MemoryUsageStore.js"
import * as MemoryWebhookStore from "@voice-agent-platform/core/memory/MemoryWebhookStore.js"
import * as MemoryDatabase from "@voice-agent-platform/core/memory/MemoryDatabase.js"
import type { Stores } from "@voice-agent-platform/core/storage/Stores.js"
import { Layer } from "effect"
import * as Migrations from "../migrations/Migrations.js"
import * as PgOrganizationStore from "../organizations/PgOrganizationStore.js"
import type { SecretBox } from "../secrets/SecretBox.js"
import * as PgTransactions from "./PgTransactions.js"

// Temporary while the SQL adapters are written: stores not yet in SQL stay in memory.
const standIn = MemoryDatabase.layer

/**
 * Every storage port over one PostgreSQL database (a server or the embedded one). Needs the migrations to
 * have run (`layer` runs them first).
 */
export const layerStores: Layer.Layer<Stores, never, SqlClient.SqlClient | SecretBox> = Layer.mergeAll(
  PgTransactions.layer,
  PgOrganizationStore.layerOrganizations,
  PgOrganizationStore.layerApiKeys,
  // BEGIN in-memory stand-ins (each is replaced by its SQL adapter)
  MemoryAgentStore.layer.pipe(Layer.provide(standIn)),
  MemoryImprovementStore.layer.pipe(Layer.provide(standIn)),
  MemoryRunStore.layer.pipe(Layer.provide(standIn)),
  MemoryChannelStore.layer.pipe(Layer.provide(standIn)),
  MemoryCallFragmentStore.layer.pipe(Layer.provide(standIn)),
  MemoryDoNotCallStore.layer.pipe(Layer.provide(standIn)),
  MemoryPhoneNumberStore.layer.pipe(Layer.provide(standIn)),
  MemoryToolStore.layerTools.pipe(Layer.provide(standIn)),
  MemoryToolStore.layerCredentials.pipe(Layer.provide(standIn)),
  MemoryDocumentStore.layer.pipe(Layer.provide(standIn)),
  MemoryCampaignStore.layer.pipe(Layer.provide(standIn)),
  MemoryUsageStore.layer.pipe(Layer.provide(standIn)),
  MemoryIntegrationStore.layer.pipe(Layer.provide(standIn)),
  MemoryTriggerStore.layer.pipe(Layer.provide(standIn)),
  MemoryIdempotencyStore.layer.pipe(Layer.provide(standIn)),
  MemoryWebhookStore.layer.pipe(Layer.provide(standIn))
  // END in-memory stand-ins
)

/** The migrations, then every store. */
export const layer: Layer.Layer<Stores, never, SqlClient.SqlClient | SecretBox> = layerStores.pipe(
  Layer.provideMerge(Migrations.layer)
)
