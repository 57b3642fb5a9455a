import { layer } from "@effect/vitest"
import type { Layer } from "effect"
import type { Stores } from "../src/storage/Stores.js"
import { agentStoreContract } from "./AgentStoreContract.js"
import { analysisJobStoreContract } from "./AnalysisJobStoreContract.js"
import { callEndsContract } from "./CallEndsContract.js"
import { callStoreContract } from "./CallStoreContract.js"
import { campaignStoreContract } from "./CampaignStoreContract.js"
import { campaignTallyContract } from "./CampaignTallyContract.js"
import { doNotCallStoreContract } from "./DoNotCallStoreContract.js"
import { documentStoreContract } from "./DocumentStoreContract.js"
import { idContract } from "./IdContract.js"
import { idempotencyStoreContract } from "./IdempotencyStoreContract.js"
import { organizationStoreContract } from "./OrganizationStoreContract.js"
import { phoneNumberStoreContract } from "./PhoneNumberStoreContract.js"
import { quotaContract } from "./QuotaContract.js"
import { runListContract } from "./RunListContract.js"
import { runModelContract } from "./RunModelContract.js"
import { runStoreContract } from "./RunStoreContract.js"
import { tenantScopeContract } from "./TenantScopeContract.js"
import { transactionContract } from "./TransactionContract.js"
import { triggerStoreContract } from "./TriggerStoreContract.js"
import { usageStoreContract } from "./UsageStoreContract.js"
import { webhookStoreContract } from "./WebhookStoreContract.js"

/**
 * The behaviour every storage adapter must have, written once and run against each (in-memory, PGlite,
 * PostgreSQL), one section per feature. Tests never assume an empty database: each makes its own organization.
 */
export const storeContract = (name: string, stores: Layer.Layer<Stores, unknown>) =>
  layer(stores, { timeout: "60 seconds" })(`storage contract: ${name}`, (it) => {
    organizationStoreContract(it)
    campaignStoreContract(it)
    campaignTallyContract(it)
    agentStoreContract(it)
    runStoreContract(it)
    runListContract(it)
    runModelContract(it)
    callStoreContract(it)
    callEndsContract(it)
    doNotCallStoreContract(it)
    triggerStoreContract(it)
    phoneNumberStoreContract(it)
    usageStoreContract(it)
    tenantScopeContract(it)
    idempotencyStoreContract(it)
    webhookStoreContract(it)
    documentStoreContract(it)
    analysisJobStoreContract(it)
    quotaContract(it)
    transactionContract(it)
    idContract(it)
  })
