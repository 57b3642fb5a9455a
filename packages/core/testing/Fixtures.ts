import { Effect } from "effect"
import type { WorkflowDefinition } from "../src/agents/Agent.js"
import { defaultWorkflowConfigurations } from "../src/agents/Agent.js"
import { publicIdFrom } from "../src/agents/AgentIds.js"
import type { NewAgent } from "../src/agents/AgentStore.js"
import { AgentStore } from "../src/agents/AgentStore.js"
import { MinorUnits } from "../src/money/Money.js"
import type { OrganizationId } from "../src/organizations/Organization.js"
import { OrganizationStore } from "../src/organizations/OrganizationStore.js"
import { base62String, layerWebCrypto } from "../src/randomness/SecureRandom.js"
import type { NewDocument } from "../src/knowledge-base/DocumentStore.js"
import * as NewRuns from "../src/runs/NewRun.js"
import type { NewRun } from "../src/runs/RunStore.js"
import type { NewTool } from "../src/tools/ToolStore.js"
import type { AgentId } from "../src/agents/AgentIds.js"
import type { NewCampaign } from "../src/campaigns/CampaignStore.js"
import { CampaignStore } from "../src/campaigns/CampaignStore.js"
import { RunStore } from "../src/runs/RunStore.js"

/** A fixed instant for records whose time does not matter. */
export const epoch = new Date("2026-01-15T10:00:00.000Z")

/** A unique suffix, so that tests sharing one database never collide. */
export const unique = (): Effect.Effect<string> => base62String(12).pipe(Effect.provide(layerWebCrypto))

/** A minimal definition. */
export const definition = (systemPrompt = "You are a test agent."): WorkflowDefinition => ({
  system_prompt: systemPrompt,
  first_message: "Hello",
  language: "en",
  nodes: [],
  edges: [],
  gathered_fields: [],
  tools: []
})

/** A fresh organization: every test makes its own, so tests stay independent in a shared database. */
export const organization = (
  options: { readonly outbound_channels?: number; readonly balance?: number } = {}
) =>
  Effect.flatMap(OrganizationStore, (store) =>
    Effect.flatMap(unique(), (suffix) =>
      store.insert(
        {
          name: `Test organization ${suffix}`,
          outbound_channels: options.outbound_channels ?? 10,
          recording_retention_days: null,
          balance: MinorUnits.make(options.balance ?? 0)
        },
        epoch
      )
    )
  )

/** What a new agent is made of, with a random public id. */
export const newAgent = (organizationId: OrganizationId, name = "Test agent") =>
  Effect.map(base62String(20).pipe(Effect.provide(layerWebCrypto)), (body): NewAgent => ({
    public_id: publicIdFrom(body),
    organization_id: organizationId,
    name,
    status: "active",
    template_context_variables: {},
    call_disposition_codes: {},
    workflow_configurations: defaultWorkflowConfigurations,
    workflow_definition: definition()
  }))

/** A stored agent of the organization. */
export const agent = (organizationId: OrganizationId, name?: string, now: Date = epoch) =>
  Effect.flatMap(AgentStore, (store) =>
    Effect.flatMap(newAgent(organizationId, name), (a) => store.insert(a, now))
  )

/** What a new phone run is made of. */
export const newRun = (
  organizationId: OrganizationId,
  agentId: AgentId,
  overrides: Partial<NewRun> = {}
): NewRun => ({
  ...NewRuns.newRun({
    workflow_id: agentId,
    agent_definition_id: null,
    organization_id: organizationId,
    mode: "phone",
    status: "queued",
    phone_number: "+48500000100",
    initial_context: { phone_number: "+48500000100" }
  }),
  ...overrides
})

/** What a new knowledge-base document is made of; `name` keeps its uuid and file key unique. */
export const newDocument = (
  organizationId: OrganizationId,
  name: string,
  overrides: Partial<NewDocument> = {}
): NewDocument => ({
  document_uuid: `doc-${name}`,
  organization_id: organizationId,
  filename: `${name}.txt`,
  file_size_bytes: 12,
  file_hash: "00",
  mime_type: "text/plain",
  processing_status: "pending",
  total_chunks: 0,
  custom_metadata: {},
  parser_metadata: {},
  blob_key: `documents/${name}`,
  created_by: null,
  is_active: true,
  processing_error: null,
  source_url: null,
  ...overrides
})

/** An active end-call tool of the organization; `name` keeps its uuid unique. */
export const newEndCallTool = (organizationId: OrganizationId, name: string): NewTool => ({
  tool_uuid: `tool-${name}`,
  organization_id: organizationId,
  name: "End call",
  description: null,
  category: "end_call",
  icon: "globe",
  icon_color: "#3B82F6",
  status: "active",
  definition: { schema_version: 1, type: "end_call", config: { messageType: "none" } },
  created_by: null
})

/** A campaign of the agent, as created: no contacts, one attempt each. */
export const newCampaign = (
  organizationId: OrganizationId,
  agentId: AgentId,
  fields: Partial<NewCampaign> = {}
): NewCampaign => ({
  organization_id: organizationId,
  agent_id: agentId,
  name: "Spring",
  status: "created",
  from_phone_number_id: null,
  max_concurrency: 5,
  max_attempts: 1,
  retry_delay_seconds: 60,
  retry_on: ["busy", "no_answer", "failed"],
  started_at: null,
  ended_at: null,
  ...fields
})

/**
 * A running campaign of the organization (`fields` over `newCampaign`'s) whose `n` contacts are each in an
 * attempt, a run of its own that the campaign carries, leased to "dialer" for 10 minutes; the campaign is
 * written at the epoch, its runs a second later. The campaign's tallies are left to the caller.
 */
export const campaignInAttempts = (
  organizationId: OrganizationId,
  n: number,
  fields: Partial<NewCampaign> = {}
) =>
  Effect.gen(function* () {
    const store = yield* CampaignStore
    const runs = yield* RunStore
    const { agent: stored } = yield* agent(organizationId)
    const campaign = yield* store.insert(
      newCampaign(organizationId, stored.id, { status: "running", ...fields }),
      epoch
    )
    const numbers = Array.from({ length: n }, (_, i) => ({
      phone_number: `+4850070${String(i).padStart(4, "0")}`,
      initial_context: {}
    }))
    const { added } = yield* store.addContacts(organizationId, campaign.id, numbers, epoch)
    const attempts = yield* runs.insertMany(
      added.map(() => ({ ...newRun(organizationId, stored.id), campaign_id: campaign.id })),
      new Date(epoch.getTime() + 1000)
    )
    yield* store.startAttempts(
      organizationId,
      added.map((contact, i) => ({ id: contact.id, runId: attempts[i]!.workflow_run_id })),
      "dialer",
      600
    )
    return { campaign, agent: stored, contacts: added, runs: attempts }
  })
