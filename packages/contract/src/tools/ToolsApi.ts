import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import * as Tool from "@voice-agent-platform/core/tools/Tool.js"
import * as ToolDefinition from "@voice-agent-platform/core/tools/ToolDefinition.js"
import { Schema } from "effect"
import { Conflict, NotFound } from "../errors/ApiErrors.js"
import { Authentication } from "../middleware/Authentication.js"
import { JsonObject, strict } from "../shared/Json.js"
import { PageOf, PageParams } from "../shared/Pagination.js"
import { Timestamp } from "../shared/Timestamp.js"

/** A tool as the API shows it; an integration's `api_key` always reads back as null. */
export const ToolResponse = Schema.Struct({
  id: Schema.Int,
  ...Tool.Tool.pick("tool_uuid", "name", "description", "category", "icon", "icon_color", "status").fields,
  definition: Schema.typeSchema(ToolDefinition.ToolDefinition).annotations({ identifier: "ToolDefinition" }),
  created_at: Timestamp,
  updated_at: Schema.NullOr(Timestamp),
  created_by: Tool.Tool.fields.created_by
}).annotations({ identifier: "Tool" })

/** `POST /tools`: name, optional presentation fields with their defaults, and the definition. */
export const CreateToolRequest = strict(
  Tool.CreateToolRequest.annotations({ identifier: "CreateToolRequest" })
)

const fields = Tool.CreateToolRequest.fields
const optional = <S extends Schema.Schema.Any>(schema: S) => Schema.optionalWith(schema, { exact: true })

/** `PATCH /tools/{tool_uuid}`: every field optional, validated as on create; omitted fields stay. */
export const UpdateToolRequest = strict(
  Schema.Struct({
    name: optional(fields.name),
    description: optional(Schema.NullOr(Schema.String)),
    category: optional(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100))),
    icon: optional(Schema.NullOr(Schema.String.pipe(Schema.maxLength(Tool.toolLimits.icon)))),
    icon_color: optional(Schema.NullOr(Schema.String.pipe(Schema.maxLength(Tool.toolLimits.iconColor)))),
    definition: optional(ToolDefinition.ToolDefinition)
  }).annotations({ identifier: "UpdateToolRequest" })
)

/** `POST /tools/{tool_uuid}/test`: the model's arguments, the run's context, the agent whose numbers a transfer may use. */
export const TestToolRequest = strict(
  Schema.Struct({
    arguments: optional(
      JsonObject.annotations({
        description: "The arguments the model would pass, checked against the tool's parameters"
      })
    ),
    initial_context: optional(
      JsonObject.annotations({
        description: "What `{{initial_context.key}}` placeholders read, as a run's initial context"
      })
    ),
    agent_id: optional(
      Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100)).annotations({
        description:
          "An agent (public id or number) whose `transfer_numbers` a transfer tool may use; without it a transfer goes to the tool's own `destination_number`"
      })
    )
  }).annotations({ identifier: "TestToolRequest" })
)

/** Why a tool call failed. */
export const ToolCallError = Schema.Struct({
  type: Schema.Literal(
    "invalid_arguments",
    "timeout",
    "destination_not_allowed",
    "connection_failed",
    "http_status",
    "invalid_response",
    "no_transfer_destination"
  ),
  detail: Schema.String
}).annotations({ identifier: "ToolCallError" })

/** What running a tool gave. */
export const ToolTestResult = Schema.Struct({
  ok: Schema.Boolean,
  status_code: Schema.NullOr(Schema.Int).annotations({
    description: "The receiver's status (HTTP API tools)"
  }),
  duration_ms: Schema.Number,
  response: Schema.Unknown.annotations({
    description:
      "What goes back to the model: the picked `response_fields` as `{path: value}`, or the whole JSON body; `{action, destination_number}` for a transfer, `{action, message}` for an end call"
  }),
  message: Schema.NullOr(Schema.String).annotations({
    description:
      "What the agent says: the tool's `error_message` on failure, a transfer's or end call's message"
  }),
  error: Schema.NullOr(ToolCallError)
}).annotations({ identifier: "ToolTestResult" })

const toolPath = Schema.Struct({
  tool_uuid: Schema.String.annotations({ description: "The tool's `tool_uuid`" })
})

/** Tools agents call during conversations: HTTP requests, ending or transferring the call, integrations. */
export class ToolsApi extends HttpApiGroup.make("tools")
  .add(
    HttpApiEndpoint.post("create", "/tools")
      .setHeaders(
        Schema.Struct({
          authorization: Schema.optional(Schema.String).annotations({
            description: "Accepted for compatibility and ignored: the API key in `X-API-Key` authenticates"
          })
        })
      )
      .setPayload(CreateToolRequest)
      .addSuccess(ToolResponse)
      .addError(NotFound)
      .annotateContext(
        OpenApi.annotations({
          summary: "Create Tool",
          description:
            "Creates an active tool and returns it. Defaults: `icon` `globe`, `icon_color` `#3B82F6`, `category` the definition's `type`, an HTTP API tool's `timeout_ms` 5000, a parameter's `required` true. An HTTP API tool's `credential_uuid` must name a stored credential (404 otherwise). An integration tool's `api_key` is stored but never returned: it reads back as null."
        })
      )
  )
  .add(
    HttpApiEndpoint.get("list", "/tools")
      .setUrlParams(Schema.Struct({ ...PageParams, status: optional(Tool.ToolStatus) }))
      .addSuccess(PageOf(ToolResponse, "ToolPage"))
      .annotateContext(
        OpenApi.annotations({
          summary: "List Tools",
          description:
            "The organization's tools, newest first, archived ones included; filter by `status` (active, archived)."
        })
      )
  )
  .add(
    HttpApiEndpoint.get("get", "/tools/:tool_uuid")
      .setPath(toolPath)
      .addSuccess(ToolResponse)
      .addError(NotFound)
      .annotateContext(
        OpenApi.annotations({
          summary: "Get Tool",
          description: "One tool by its `tool_uuid`, archived or not."
        })
      )
  )
  .add(
    HttpApiEndpoint.patch("update", "/tools/:tool_uuid")
      .setPath(toolPath)
      .setPayload(UpdateToolRequest)
      .addSuccess(ToolResponse)
      .addError(NotFound)
      .addError(Conflict)
      .annotateContext(
        OpenApi.annotations({
          summary: "Update Tool",
          description:
            "Changes the given fields of an active tool, validated as on create; omitted fields stay. A new definition replaces the old one whole, except that an integration `api_key` left out or null keeps the stored key (send an empty string to remove it). A category that was defaulted follows a definition of another type. An archived tool answers 409; an unknown `credential_uuid` 404."
        })
      )
  )
  .add(
    HttpApiEndpoint.del("archive", "/tools/:tool_uuid")
      .setPath(toolPath)
      .addSuccess(ToolResponse)
      .addError(NotFound)
      .annotateContext(
        OpenApi.annotations({
          summary: "Delete Tool",
          description:
            "Archives the tool (status `archived`) and returns it; it stays readable but no longer changes. Deleting an archived tool returns it unchanged."
        })
      )
  )
  .add(
    HttpApiEndpoint.post("test", "/tools/:tool_uuid/test")
      .setPath(toolPath)
      .setPayload(TestToolRequest)
      .addSuccess(ToolTestResult)
      .addError(NotFound)
      .addError(Conflict)
      .annotateContext(
        OpenApi.annotations({
          summary: "Test Tool",
          description:
            "Runs the tool once, as an agent would during a call, and answers what happened. An HTTP API tool's arguments are checked against its `parameters` (a bad call is `invalid_arguments`, no request is made), then sent as query parameters (GET, DELETE) or a JSON body (POST, PUT, PATCH); `{{name}}` and `{{initial_context.key}}` placeholders in the URL and header values are filled; the credential is added; the request goes through the guarded outbound client with the tool's `timeout_ms` (at most 30000) and reads at most 256 KiB. A failed call is still a 200 with `ok: false` and `error.type` one of `invalid_arguments`, `timeout`, `destination_not_allowed`, `connection_failed`, `http_status`, `invalid_response`, `no_transfer_destination`. No answer shows a secret. 404 for an unknown tool or agent, 409 for an archived tool, 422 for an integration tool when no provider adapter is installed."
        })
      )
  )
  .middleware(Authentication)
  .prefix("/api/v1") {}
