import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import * as Trigger from "@voice-agent-platform/core/triggers/Trigger.js"
import { Schema } from "effect"
import { NotFound } from "../errors/ApiErrors.js"
import { Authentication } from "../middleware/Authentication.js"
import { JsonObject, strict } from "../shared/Json.js"
import { PageOf, PageParams } from "../shared/Pagination.js"
import { Timestamp } from "../shared/Timestamp.js"

/** A trigger as the API shows it; `workflow_id` is its agent's number. */
const { name, status } = Trigger.Trigger.fields

export const TriggerResponse = Schema.Struct({
  trigger_id: Schema.String.annotations({ description: "`trg_` and 20 characters of [A-Za-z0-9]" }),
  workflow_id: Schema.Int,
  name,
  initial_context: JsonObject,
  status,
  created_at: Timestamp
}).annotations({ identifier: "Trigger" })

/** `POST /triggers`. */
export const CreateTriggerRequest = strict(
  Schema.Struct({
    agent_id: Schema.Union(Schema.String, Schema.Int).annotations({
      description: "The agent's public id (agent_...) or its number"
    }),
    name: Schema.Trim.pipe(Schema.minLength(1), Schema.maxLength(255)),
    initial_context: Schema.optionalWith(Schema.NullOr(JsonObject), { exact: true }).annotations({
      description: "The context every call through the trigger starts from; a call's own keys win"
    })
  }).annotations({ identifier: "CreateTriggerRequest" })
)

const triggerPath = Schema.Struct({
  trigger_id: Schema.String.annotations({ description: "The trigger's id (trg_...)" })
})

/** Triggers: named entry points that place calls with a fixed agent and context. */
export class TriggersApi extends HttpApiGroup.make("triggers")
  .add(
    HttpApiEndpoint.post("create", "/triggers")
      .setPayload(CreateTriggerRequest)
      .addSuccess(TriggerResponse)
      .addError(NotFound)
      .annotateContext(
        OpenApi.annotations({
          summary: "Create a trigger",
          description:
            "A named entry point for placing calls with one agent and a base `initial_context`. Place calls with `POST /triggers/{trigger_id}/calls`. 404 when the agent is not one of the organization's."
        })
      )
  )
  .add(
    HttpApiEndpoint.get("list", "/triggers")
      .setUrlParams(
        Schema.Struct({ ...PageParams, status: Schema.optionalWith(Trigger.TriggerStatus, { exact: true }) })
      )
      .addSuccess(PageOf(TriggerResponse, "TriggerPage"))
      .annotateContext(
        OpenApi.annotations({
          summary: "List triggers",
          description: "The organization's triggers, newest first; filter by `status`."
        })
      )
  )
  .add(
    HttpApiEndpoint.get("get", "/triggers/:trigger_id")
      .setPath(triggerPath)
      .addSuccess(TriggerResponse)
      .addError(NotFound)
      .annotateContext(
        OpenApi.annotations({ summary: "Get a trigger", description: "One trigger, archived ones included." })
      )
  )
  .add(
    HttpApiEndpoint.del("archive", "/triggers/:trigger_id")
      .setPath(triggerPath)
      .addSuccess(HttpApiSchema.NoContent)
      .addError(NotFound)
      .annotateContext(
        OpenApi.annotations({
          summary: "Delete (archive) a trigger",
          description:
            "Archives the trigger: it stays readable with status `archived`, and calls through it answer 409. Archiving an archived trigger answers 204 again."
        })
      )
  )
  .middleware(Authentication)
  .prefix("/api/v1") {}
