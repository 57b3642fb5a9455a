import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Tool, ToolDefinition } from "@voice-agent-platform/core"
import { Schema } from "effect"
import { Conflict, NotFound } from "../errors/ApiErrors.js"
import { Authentication } from "../middleware/Authentication.js"
import { strict } from "../shared/Json.js"
import { PageOf, PageParams } from "../shared/Pagination.js"
import { Timestamp } from "../shared/Timestamp.js"

/** A tool as the API shows it; an integration's `api_key` always reads back as null. */
export const ToolResponse = Schema.Struct({
  id: Schema.Int,
  tool_uuid: Schema.String,
  name: Schema.String,
  description: Schema.NullOr(Schema.String),
  category: Schema.String,
  icon: Schema.NullOr(Schema.String),
  icon_color: Schema.NullOr(Schema.String),
  status: Tool.ToolStatus,
  definition: Schema.typeSchema(ToolDefinition.ToolDefinition).annotations({ identifier: "ToolDefinition" }),
  created_at: Timestamp,
  updated_at: Schema.NullOr(Timestamp),
  created_by: Schema.NullOr(Schema.Struct({ id: Schema.Int, provider_id: Schema.String }))
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
      .annotate(OpenApi.Summary, "Create Tool")
      .annotate(
        OpenApi.Description,
        "Creates an active tool and returns it. Defaults: `icon` `globe`, `icon_color` `#3B82F6`, `category` the definition's `type`, an HTTP API tool's `timeout_ms` 5000, a parameter's `required` true. An HTTP API tool's `credential_uuid` must name a stored credential (404 otherwise). An integration tool's `api_key` is stored but never returned: it reads back as null."
      )
  )
  .add(
    HttpApiEndpoint.get("list", "/tools")
      .setUrlParams(Schema.Struct({ ...PageParams, status: optional(Tool.ToolStatus) }))
      .addSuccess(PageOf(ToolResponse, "ToolPage"))
      .annotate(OpenApi.Summary, "List Tools")
      .annotate(
        OpenApi.Description,
        "The organization's tools, newest first, archived ones included; filter by `status` (active, archived)."
      )
  )
  .add(
    HttpApiEndpoint.get("get", "/tools/:tool_uuid")
      .setPath(toolPath)
      .addSuccess(ToolResponse)
      .addError(NotFound)
      .annotate(OpenApi.Summary, "Get Tool")
      .annotate(OpenApi.Description, "One tool by its `tool_uuid`, archived or not.")
  )
  .add(
    HttpApiEndpoint.patch("update", "/tools/:tool_uuid")
      .setPath(toolPath)
      .setPayload(UpdateToolRequest)
      .addSuccess(ToolResponse)
      .addError(NotFound)
      .addError(Conflict)
      .annotate(OpenApi.Summary, "Update Tool")
      .annotate(
        OpenApi.Description,
        "Changes the given fields of an active tool, validated as on create; omitted fields stay. A new definition replaces the old one whole, except that an integration `api_key` left out or null keeps the stored key (send an empty string to remove it). A category that was defaulted follows a definition of another type. An archived tool answers 409; an unknown `credential_uuid` 404."
      )
  )
  .add(
    HttpApiEndpoint.del("archive", "/tools/:tool_uuid")
      .setPath(toolPath)
      .addSuccess(ToolResponse)
      .addError(NotFound)
      .annotate(OpenApi.Summary, "Delete Tool")
      .annotate(
        OpenApi.Description,
        "Archives the tool (status `archived`) and returns it; it stays readable but no longer changes. Deleting an archived tool returns it unchanged."
      )
  )
  .middleware(Authentication)
  .prefix("/api/v1") {}
