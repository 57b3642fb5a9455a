import type { SqlClient } from "@effect/sql"
import type { Stores } from "@voice-agent-platform/core/storage/Stores.js"
import { Layer } from "effect"
import * as PgAnalysisJobStore from "../analysis/PgAnalysisJobStore.js"
import * as PgCampaignStore from "../campaigns/PgCampaignStore.js"
import * as PgDocumentStore from "../knowledge-base/PgDocumentStore.js"
import * as PgPhoneNumberStore from "../phone-numbers/PgPhoneNumberStore.js"
import * as PgRunStore from "../runs/PgRunStore.js"
import * as PgUsageStore from "../usage/PgUsageStore.js"
import * as PgCallFragmentStore from "../calls/PgCallFragmentStore.js"
import * as PgChannelStore from "../calls/PgChannelStore.js"
import * as PgDoNotCallStore from "../do-not-call/PgDoNotCallStore.js"
import * as PgImprovementStore from "../improvements/PgImprovementStore.js"
import * as PgTriggerStore from "../triggers/PgTriggerStore.js"
import * as PgIdempotencyStore from "../idempotency/PgIdempotencyStore.js"
import * as PgIntegrationStore from "../integrations/PgIntegrationStore.js"
import * as PgToolStore from "../tools/PgToolStore.js"
import * as PgWebhookStore from "../webhooks/PgWebhookStore.js"
import * as Migrations from "../migrations/Migrations.js"
import * as PgOrganizationStore from "../organizations/PgOrganizationStore.js"
import * as CachedLookups from "../lookups/CachedLookups.js"
import type { SecretBox } from "../secrets/SecretBox.js"
import * as SealedColumns from "../secrets/SealedColumns.js"
import * as ServerSecrets from "../secrets/ServerSecrets.js"
import * as PgTransactions from "./PgTransactions.js"

/**
 * Every storage port over one PostgreSQL database (a server or the embedded one). Needs the migrations to
 * have run (`layer` runs them first).
 */
export const layerStores: Layer.Layer<Stores, never, SqlClient.SqlClient | SecretBox> = Layer.mergeAll(
  PgTransactions.layer,
  PgOrganizationStore.layerOrganizations,
  CachedLookups.layerApiKeys,
  // BEGIN in-memory stand-ins (each is replaced by its SQL adapter)
  CachedLookups.layerAgents,
  PgImprovementStore.layer,
  PgRunStore.layer,
  PgChannelStore.layer,
  PgCallFragmentStore.layer,
  PgDoNotCallStore.layer,
  PgPhoneNumberStore.layer,
  PgToolStore.layerTools,
  PgToolStore.layerCredentials,
  PgDocumentStore.layer,
  PgCampaignStore.layer,
  PgUsageStore.layer,
  PgIntegrationStore.layer,
  PgTriggerStore.layer,
  PgIdempotencyStore.layer,
  PgWebhookStore.layer,
  PgAnalysisJobStore.layer
  // END in-memory stand-ins
)

/**
 * The migrations, the re-sealing of values sealed before they were bound to their rows, a check that the
 * encryption key is the database's, then every store. Fails (the server does not start) when the key is
 * another one.
 */
export const layer: Layer.Layer<
  Stores,
  ServerSecrets.EncryptionKeyMismatch,
  SqlClient.SqlClient | SecretBox
> = layerStores.pipe(
  Layer.provideMerge(ServerSecrets.layerVerifiedKey),
  Layer.provideMerge(SealedColumns.layerResealed),
  Layer.provideMerge(Migrations.layer)
)
