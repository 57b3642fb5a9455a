import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import * as Agent from "@voice-agent-platform/core/agents/Agent.js"
import * as CallScript from "@voice-agent-platform/core/agents/CallScript.js"
import * as DefinitionChanges from "@voice-agent-platform/core/agents/DefinitionChanges.js"
import { Schema } from "effect"
import { Conflict, NotFound } from "../errors/ApiErrors.js"
import { Authentication } from "../middleware/Authentication.js"
import { JsonObject, strict } from "../shared/Json.js"
import { PageOf, PageParams, PageQuery } from "../shared/Pagination.js"
import { Timestamp } from "../shared/Timestamp.js"

/** An agent as the API shows it. `id` and `workflow_id` are its number; `public_id` its public id. */
export const AgentResponse = Schema.Struct({
  id: Schema.Int,
  workflow_id: Schema.Int,
  public_id: Schema.String,
  ...Agent.Agent.pick("name", "status").fields,
  created_at: Timestamp,
  updated_at: Timestamp,
  workflow_definition: Agent.WorkflowDefinition,
  current_definition_id: Schema.Int,
  template_context_variables: JsonObject,
  call_disposition_codes: JsonObject,
  total_runs: Schema.Int,
  workflow_configurations: Agent.Agent.fields.workflow_configurations
}).annotations({ identifier: "Agent" })

/** One version of an agent's definition. */
export const AgentDefinitionResponse = Schema.Struct({
  id: Schema.Int,
  workflow_id: Schema.Int,
  version: Schema.Int,
  workflow_definition: Agent.AgentDefinition.fields.workflow_definition,
  created_at: Timestamp
}).annotations({ identifier: "AgentDefinition" })

/** The bounds of an agent's disposition codes (docs/limits.md). */
export const maxDispositionCodes = 50
export const dispositionCodeChars = 100
export const dispositionDescriptionChars = 1_000

/** `PATCH /agents/{agent_id}`: every field optional; configuration fields are merged into the current ones. */
export const UpdateAgentRequest = strict(
  Schema.Struct({
    name: Schema.optionalWith(Schema.Trim.pipe(Schema.minLength(1), Schema.maxLength(255)), { exact: true }),
    status: Schema.optionalWith(Agent.AgentStatus, { exact: true }),
    template_context_variables: Schema.optionalWith(JsonObject, { exact: true }),
    call_disposition_codes: Schema.optionalWith(
      Schema.Record({
        key: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(dispositionCodeChars)),
        value: Schema.String.pipe(Schema.maxLength(dispositionDescriptionChars))
      }).pipe(
        Schema.filter(
          (codes) =>
            Object.keys(codes).length <= maxDispositionCodes || `at most ${maxDispositionCodes} codes`
        )
      ),
      { exact: true }
    ).annotations({
      description: `The codes the analysis after each run chooses the run's \`disposition\` from, each with what it means (\`{code: description}\`, at most ${maxDispositionCodes}); replaces the current ones`
    }),
    workflow_configurations: Schema.optionalWith(
      Schema.Struct({
        max_call_duration_seconds: Schema.optionalWith(
          Agent.WorkflowConfigurations.fields.max_call_duration_seconds,
          {
            exact: true
          }
        ),
        transfer_numbers: Schema.optionalWith(
          Schema.Array(
            Schema.String.pipe(
              Schema.pattern(/^\+[1-9][0-9]{6,14}$/, { message: () => "expected an E.164 number" })
            )
          ),
          { exact: true }
        ),
        voice: Schema.optionalWith(Schema.NullOr(Schema.String.pipe(Schema.maxLength(100))), { exact: true }),
        model: Schema.optionalWith(Agent.ModelChoice, { exact: true }).annotations({
          description:
            "The agent's language model when not the server's: `model` (another model on the same provider), `temperature` (0..2), `max_tokens` (1..32768); `{}` goes back to the server's"
        })
      }),
      { exact: true }
    ),
    // Definition fields: any of them makes a new definition version.
    system_prompt: Schema.optionalWith(
      Schema.String.pipe(
        Schema.minLength(1),
        Schema.maxLength(DefinitionChanges.limits.systemPromptChars)
      ).annotations({ description: "The new system prompt (a new definition version)" }),
      { exact: true }
    ),
    first_message: Schema.optionalWith(
      Schema.String.pipe(Schema.maxLength(DefinitionChanges.limits.firstMessageChars)).annotations({
        description: "What the agent says first (a new definition version)"
      }),
      { exact: true }
    ),
    tools: Schema.optionalWith(
      Schema.Array(
        Schema.String.pipe(Schema.minLength(1), Schema.maxLength(DefinitionChanges.limits.toolUuidChars))
      )
        .pipe(Schema.maxItems(DefinitionChanges.limits.tools))
        .annotations({
          description:
            "The agent's tools by `tool_uuid`, replacing the current ones (a booking tool stays); each must be an active tool of the organization (unknown 404, archived 409)"
        }),
      { exact: true }
    ),
    knowledge_base_document_ids: Schema.optionalWith(
      Schema.Array(Schema.Union(Schema.Int.pipe(Schema.positive()), Schema.String.pipe(Schema.maxLength(64))))
        .pipe(Schema.maxItems(DefinitionChanges.limits.knowledgeDocuments))
        .annotations({
          description:
            "The knowledge-base documents the agent answers from, by id or `document_uuid`, replacing the current ones (a new definition version); each must be the organization's (404 otherwise). For each user message the most relevant chunks (3, at most 6,000 characters) are given to the model."
        }),
      { exact: true }
    ),
    transfer_numbers: Schema.optionalWith(
      Schema.Array(Schema.String.pipe(Schema.maxLength(64)))
        .pipe(Schema.maxItems(DefinitionChanges.limits.transferNumbers))
        .annotations({
          description:
            "Numbers a transfer tool may use when the model names one, in international form (stored in E.164; an invalid one is 422); also shown in `workflow_configurations`"
        }),
      { exact: true }
    )
  }).annotations({ identifier: "UpdateAgentRequest" })
)

/** `POST /agent-templates/analyze-script`. */
export const AnalyzeScriptRequest = strict(
  Schema.Struct({
    script: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100_000)),
    language: Schema.optionalWith(CallScript.LanguageCode, { exact: true })
  }).annotations({ identifier: "AnalyzeScriptRequest" })
)

const agentPath = Schema.Struct({
  agent_id: Schema.String.annotations({ description: "The agent's public id (agent_...) or its number" })
})

/** Agents: created from call scripts, listed, read, changed, and versioned. */
export class AgentsApi extends HttpApiGroup.make("agents")
  .add(
    HttpApiEndpoint.post("analyzeScript", "/agent-templates/analyze-script")
      .setPayload(AnalyzeScriptRequest)
      .addSuccess(
        CallScript.CallScriptRequest.pipe(Schema.typeSchema).annotations({ identifier: "CallScriptPreview" })
      )
      .annotateContext(
        OpenApi.annotations({
          summary: "Analyze a call script",
          description:
            "Reads a plain-text call script and answers the preview that `POST /agents/from-script` accepts: greeting, steps, objections, required phrases and data fields."
        })
      )
  )
  .add(
    HttpApiEndpoint.post("createFromScript", "/agents/from-script")
      .setPayload(strict(CallScript.CallScriptRequest))
      .addSuccess(AgentResponse)
      .addError(NotFound)
      .annotateContext(
        OpenApi.annotations({
          summary: "Create Agent From Call Script",
          description:
            "Creates an agent from a script preview. The greeting becomes the first message, the steps the conversation plan; required phrases and objection replies get their own sections of the prompt. With `enable_booking`, a booking tool is attached on `scheduler_connection_id` (404 when that connection does not exist)."
        })
      )
  )
  .add(
    HttpApiEndpoint.get("list", "/agents")
      .setUrlParams(
        Schema.Struct({ ...PageParams, status: Schema.optionalWith(Agent.AgentStatus, { exact: true }) })
      )
      .addSuccess(PageOf(AgentResponse, "AgentPage"))
      .annotateContext(
        OpenApi.annotations({
          summary: "List agents",
          description: "The organization's agents, newest first; filter by `status`."
        })
      )
  )
  .add(
    HttpApiEndpoint.get("get", "/agents/:agent_id")
      .setPath(agentPath)
      .addSuccess(AgentResponse)
      .addError(NotFound)
      .annotateContext(
        OpenApi.annotations({
          summary: "Get an agent",
          description: "One agent by public id or number, with its current definition."
        })
      )
  )
  .add(
    HttpApiEndpoint.patch("update", "/agents/:agent_id")
      .setPath(agentPath)
      .setPayload(UpdateAgentRequest)
      .addSuccess(AgentResponse)
      .addError(NotFound)
      .addError(Conflict)
      .annotateContext(
        OpenApi.annotations({
          summary: "Update an agent",
          description:
            "Changes the name, status, template variables, disposition codes or configuration (the language model in `workflow_configurations.model`). `system_prompt`, `first_message`, `tools`, `knowledge_base_document_ids` and `transfer_numbers` (also when set in `workflow_configurations`) make a new definition version derived from the current one: `current_definition_id` moves to it and `GET …/definitions` lists it. Calls placed afterwards use it; calls placed before keep theirs."
        })
      )
  )
  .add(
    HttpApiEndpoint.get("definitions", "/agents/:agent_id/definitions")
      .setPath(agentPath)
      .setUrlParams(PageQuery)
      .addSuccess(PageOf(AgentDefinitionResponse, "AgentDefinitionPage"))
      .addError(NotFound)
      .annotateContext(
        OpenApi.annotations({
          summary: "List definition versions",
          description: "Every version of the agent's definition, newest first."
        })
      )
  )
  .middleware(Authentication)
  .prefix("/api/v1") {}
