import { Cause, Clock, Context, Effect, Layer, Option } from "effect"
import * as SpanAttributes from "../observability/SpanAttributes.js"
import { IntegrationConnectionNotFound } from "../integrations/IntegrationErrors.js"
import { IntegrationStore } from "../integrations/IntegrationStore.js"
import type { OrganizationId } from "../organizations/Organization.js"
import type { Page, PageRequest } from "../pagination/Page.js"
import { base62String, SecureRandom } from "../randomness/SecureRandom.js"
import { RunStore } from "../runs/RunStore.js"
import { Transactions } from "../storage/Transactions.js"
import { ToolNotFound } from "../tools/ToolErrors.js"
import { ToolStore } from "../tools/ToolStore.js"
import { DocumentStore } from "../knowledge-base/DocumentStore.js"
import { DocumentNotFound } from "../knowledge-base/KnowledgeBaseErrors.js"
import { parseRef } from "../knowledge-base/KnowledgeBase.js"
import type { Agent, AgentDefinition, AgentStatus } from "./Agent.js"
import {
  AgentNotFound,
  AgentToolArchived,
  type InvalidTransferNumber,
  ModelNotAllowed
} from "./AgentErrors.js"
import type { TokenUsage } from "../language-model/LanguageModel.js"
import * as ModelChoices from "../language-model/ModelChoices.js"
import * as ModelPricing from "../language-model/ModelPricing.js"
import { UsageStore } from "../usage/UsageStore.js"
import * as AgentFromScript from "./AgentFromScript.js"
import type { AgentRef } from "./AgentIds.js"
import { parseAgentRef, publicIdFrom } from "./AgentIds.js"
import type { AgentPatch } from "./AgentStore.js"
import { AgentStore } from "./AgentStore.js"
import type { CallScriptRequest } from "./CallScript.js"
import * as DefinitionChanges from "./DefinitionChanges.js"
import { PromptWriter } from "./PromptWriter.js"
import * as OperationSpans from "../observability/OperationSpans.js"

/**
 * A change of an agent: its own fields (`AgentPatch`) and, in `definition`, what goes into a new
 * definition version. Transfer numbers given in `definition` are also the configuration's.
 */
export type AgentUpdate = AgentPatch & {
  readonly definition?: Omit<DefinitionChanges.DefinitionChanges, "knowledge_base_document_ids"> & {
    /** The knowledge-base documents, each by its integer id or `document_uuid` (stored by id). */
    readonly knowledge_base_documents?: ReadonlyArray<number | string>
  }
}

/** Why an update was refused. */
export type AgentUpdateError =
  | AgentNotFound
  | ToolNotFound
  | AgentToolArchived
  | InvalidTransferNumber
  | DocumentNotFound
  | ModelNotAllowed

/** An agent with its current definition and how many runs it has. */
export interface AgentView {
  readonly agent: Agent
  readonly definition: AgentDefinition
  readonly total_runs: number
}

/** Agents: created from call scripts, read, changed, and versioned. */
export class Agents extends Context.Tag("@voice-agent-platform/core/Agents")<
  Agents,
  {
    /** The agent an `{agent_id}` names (public id or number), within the organization. */
    readonly resolve: (
      organizationId: OrganizationId,
      ref: AgentRef | string
    ) => Effect.Effect<Agent, AgentNotFound>
    readonly get: (
      organizationId: OrganizationId,
      ref: AgentRef | string
    ) => Effect.Effect<AgentView, AgentNotFound>
    /** A page of agents, each with its current definition and run count. */
    readonly list: (
      organizationId: OrganizationId,
      filter: { readonly status?: AgentStatus },
      page: PageRequest
    ) => Effect.Effect<Page<AgentView>>
    readonly update: (
      organizationId: OrganizationId,
      ref: AgentRef | string,
      update: AgentUpdate
    ) => Effect.Effect<AgentView, AgentUpdateError>
    readonly definitions: (
      organizationId: OrganizationId,
      ref: AgentRef | string,
      page: PageRequest
    ) => Effect.Effect<Page<AgentDefinition>, AgentNotFound>
    readonly createFromScript: (
      organizationId: OrganizationId,
      request: CallScriptRequest
    ) => Effect.Effect<AgentView, IntegrationConnectionNotFound>
  }
>() {}

/** How long `generate_with_ai` may take before the composed prompt is used instead. */
export const promptWriterTimeout = "30 seconds"

const label = (ref: AgentRef | string) =>
  typeof ref === "string" ? ref : ref._tag === "PublicId" ? ref.publicId : String(ref.id)

export const layer = Layer.effect(
  Agents,
  Effect.gen(function* () {
    const agents = yield* AgentStore
    const runs = yield* RunStore
    const integrations = yield* IntegrationStore
    const random = yield* SecureRandom
    const tools = yield* ToolStore
    const documents = yield* DocumentStore
    const transactions = yield* Transactions
    // Read once, when the layer is built: providing a PromptWriter to the layer is how it is configured.
    const writer = yield* Effect.serviceOption(PromptWriter)
    const modelChoices = yield* ModelChoices.ModelChoices
    const ledger = yield* UsageStore
    // configuration is read when the layer is built
    const price = yield* ModelPricing.ModelPricing

    const resolve = (organizationId: OrganizationId, ref: AgentRef | string) =>
      Effect.gen(function* () {
        const parsed = typeof ref === "string" ? parseAgentRef(ref) : ref
        const agent = parsed === undefined ? Option.none() : yield* agents.find(organizationId, parsed)
        return Option.isSome(agent) ? agent.value : yield* new AgentNotFound({ agent_id: label(ref) })
      })

    const view = (agent: Agent) =>
      Effect.gen(function* () {
        const definition = yield* agents.findDefinition(agent.organization_id, agent.current_definition_id)
        if (Option.isNone(definition))
          return yield* Effect.dieMessage(`agent ${agent.id} has no current definition`)
        const total_runs = yield* runs.countByAgent(agent.organization_id, agent.id)
        return { agent, definition: definition.value, total_runs }
      })

    /**
     * The composed definition, rewritten by the language model when one is configured and succeeds, and
     * the tokens the model was paid for (a refused reply's too; none known after a time-out or a crash).
     */
    const withLanguageModel = (
      request: CallScriptRequest,
      composed: AgentFromScript.ComposedAgent
    ): Effect.Effect<{
      readonly composed: AgentFromScript.ComposedAgent
      readonly usage: TokenUsage | undefined
    }> => {
      if (!request.generate_with_ai || Option.isNone(writer))
        return Effect.succeed({ composed, usage: undefined })
      return writer.value.writeSystemPrompt({ request, draft: composed.workflow_definition }).pipe(
        Effect.timeout(promptWriterTimeout),
        Effect.map(({ system_prompt, usage }) => ({
          composed: { ...composed, workflow_definition: { ...composed.workflow_definition, system_prompt } },
          usage
        })),
        // Whatever goes wrong (a failure, a time-out, a defect), the deterministic composition stands.
        Effect.catchAllCause((cause) =>
          Effect.logWarning("generate_with_ai failed; keeping the composed prompt", cause).pipe(
            Effect.as({
              composed,
              usage: Option.getOrUndefined(
                Option.flatMapNullable(Cause.failureOption(cause), (failure) =>
                  failure._tag === "PromptWriterFailure" ? failure.usage : undefined
                )
              )
            })
          )
        )
      )
    }

    return {
      resolve: OperationSpans.fn("Agents.resolve")(resolve, SpanAttributes.organizationAgent),
      get: OperationSpans.fn("Agents.get")(
        (organizationId, ref) => Effect.flatMap(resolve(organizationId, ref), view),
        SpanAttributes.organizationAgent
      ),
      list: OperationSpans.fn("Agents.list")(
        (organizationId, filter, page) =>
          Effect.flatMap(agents.list(organizationId, filter, page), (agentPage) =>
            Effect.map(Effect.forEach(agentPage.items, view), (items) => ({ ...agentPage, items }))
          ),
        SpanAttributes.organization
      ),
      update: OperationSpans.fn("Agents.update")(function* (
        organizationId,
        ref,
        { definition: asked, ...patch }
      ) {
        const agent = yield* resolve(organizationId, ref)
        const chosen = patch.workflow_configurations?.model?.model
        if (chosen !== undefined && !ModelChoices.isAllowed(modelChoices, chosen)) {
          return yield* new ModelNotAllowed({
            model: chosen,
            allowed: modelChoices.allowed === "any" ? [] : modelChoices.allowed
          })
        }
        // Every document named must be one of the organization's: another organization's is not found,
        // exactly like a missing one. Stored by id, whichever way it was named.
        const { knowledge_base_documents, ...definitionFields } = asked ?? {}
        const documentIds =
          knowledge_base_documents === undefined
            ? undefined
            : yield* Effect.forEach(knowledge_base_documents, (named) =>
                Effect.flatMap(
                  Option.match(parseRef(String(named)), {
                    onNone: () => Effect.succeed(Option.none()),
                    onSome: (parsed) => documents.find(organizationId, parsed)
                  }),
                  Option.match({
                    onNone: () => Effect.fail(new DocumentNotFound({ document_id: String(named) })),
                    onSome: (document) => Effect.succeed(document.id as number)
                  })
                )
              )
        const requested =
          asked === undefined
            ? undefined
            : {
                ...definitionFields,
                ...(documentIds === undefined ? {} : { knowledge_base_document_ids: documentIds })
              }
        // Transfer numbers set through the configuration are a definition change too: a run always
        // sees the numbers of the version it was placed with.
        const configured = patch.workflow_configurations?.transfer_numbers
        const fromConfiguration = configured !== undefined && requested?.transfer_numbers === undefined
        const wanted = fromConfiguration ? { ...requested, transfer_numbers: configured } : requested
        const changes =
          wanted === undefined
            ? undefined
            : yield* DefinitionChanges.deduplicatedWithE164Numbers(wanted, fromConfiguration)
        // Every tool named must be one of the organization's, and active: another organization's is
        // not found, exactly like a missing one.
        for (const toolUuid of changes?.tools ?? []) {
          const tool = yield* tools.find(organizationId, toolUuid)
          if (Option.isNone(tool)) return yield* new ToolNotFound({ tool_uuid: toolUuid })
          if (tool.value.status === "archived") return yield* new AgentToolArchived({ tool_uuid: toolUuid })
        }
        const now = new Date(yield* Clock.currentTimeMillis)
        // Transfer numbers are the configuration's too (where the API has always shown them).
        const storePatch: AgentPatch =
          changes?.transfer_numbers === undefined
            ? patch
            : {
                ...patch,
                workflow_configurations: {
                  ...patch.workflow_configurations,
                  transfer_numbers: changes.transfer_numbers
                }
              }
        // The agent's fields and its new version change together or not at all.
        const updated = yield* transactions.run(
          Effect.gen(function* () {
            const patched = yield* agents.update(organizationId, agent.id, storePatch, now)
            if (Option.isNone(patched) || changes === undefined || DefinitionChanges.isEmpty(changes)) {
              return patched
            }
            const appended = yield* agents.appendDefinition(
              organizationId,
              agent.id,
              (current) => DefinitionChanges.apply(current, changes),
              now
            )
            return Option.map(appended, ({ agent }) => agent)
          })
        )
        if (Option.isNone(updated)) return yield* new AgentNotFound({ agent_id: label(ref) })
        return yield* view(updated.value)
      }, SpanAttributes.organizationAgent),
      definitions: OperationSpans.fn("Agents.definitions")(
        (organizationId, ref, page) =>
          Effect.flatMap(resolve(organizationId, ref), (agent) =>
            agents.listDefinitions(organizationId, agent.id, page)
          ),
        SpanAttributes.organizationAgent
      ),
      createFromScript: OperationSpans.fn("Agents.createFromScript")(function* (organizationId, request) {
        if (request.enable_booking && request.scheduler_connection_id !== undefined) {
          const connection = yield* integrations.find(organizationId, request.scheduler_connection_id)
          if (Option.isNone(connection)) {
            return yield* new IntegrationConnectionNotFound({
              connection_id: request.scheduler_connection_id
            })
          }
        }
        const { composed, usage } = yield* withLanguageModel(request, AgentFromScript.compose(request))
        const publicId = publicIdFrom(yield* Effect.provideService(base62String(20), SecureRandom, random))
        const now = new Date(yield* Clock.currentTimeMillis)
        const created = yield* transactions.run(
          Effect.gen(function* () {
            const created = yield* agents.insert(
              {
                public_id: publicId,
                organization_id: organizationId,
                name: composed.name,
                status: "active",
                template_context_variables: composed.template_context_variables,
                call_disposition_codes: composed.call_disposition_codes,
                workflow_configurations: composed.workflow_configurations,
                workflow_definition: composed.workflow_definition
              },
              now
            )
            // the model's tokens are the organization's, whether its prompt was kept or not
            if (usage !== undefined) {
              yield* ledger.record({
                organization_id: organizationId,
                kind: "prompt",
                run_id: null,
                agent_id: created.agent.id,
                mode: "prompt",
                duration_seconds: 0,
                cost: ModelPricing.cost(usage, price),
                prompt_tokens: usage.prompt_tokens,
                completion_tokens: usage.completion_tokens,
                currency: "PLN",
                recorded_at: now
              })
            }
            return created
          })
        )
        return { agent: created.agent, definition: created.definition, total_runs: 0 }
      }, SpanAttributes.organization)
    }
  })
)
