import { Schema } from "effect"

/** No agent of the caller's organization has this public id or number. */
export class AgentNotFound extends Schema.TaggedError<AgentNotFound>()("AgentNotFound", {
  agent_id: Schema.String
}) {
  override get message() {
    return `Agent ${this.agent_id} not found`
  }
}

/** An archived agent places no calls. */
export class AgentArchived extends Schema.TaggedError<AgentArchived>()("AgentArchived", {
  agent_id: Schema.String
}) {
  override get message() {
    return `agent_archived: agent ${this.agent_id} is archived; set its status to active to place calls`
  }
}

/** An archived tool is no agent's any more: it cannot be given to one. */
export class AgentToolArchived extends Schema.TaggedError<AgentToolArchived>()("AgentToolArchived", {
  tool_uuid: Schema.String
}) {
  override get message() {
    return `tool_archived: tool ${this.tool_uuid} is archived and cannot be given to an agent; create a new tool instead`
  }
}

/** A transfer number that is not a valid phone number in international form. */
export class InvalidTransferNumber extends Schema.TaggedError<InvalidTransferNumber>()(
  "InvalidTransferNumber",
  {
    index: Schema.Int,
    input: Schema.String,
    /** Where the numbers were given: the top-level field, or `workflow_configurations.transfer_numbers`. */
    in_configuration: Schema.Boolean
  }
) {
  override get message() {
    return "transfer_numbers must be valid phone numbers in international format, e.g. +48500000486"
  }
}

/** An agent named a model the server does not let agents choose (422). */
export class ModelNotAllowed extends Schema.TaggedError<ModelNotAllowed>()("ModelNotAllowed", {
  model: Schema.String,
  allowed: Schema.Array(Schema.String)
}) {
  override get message() {
    return `The model ${JSON.stringify(this.model)} is not one this server lets agents choose; it allows: ${this.allowed.join(", ")}`
  }
}

/**
 * The language model could not write the prompt; the deterministic composition is used instead. `usage`:
 * the tokens a reply that was refused (empty, too long) still cost, charged all the same.
 */
export class PromptWriterFailure extends Schema.TaggedError<PromptWriterFailure>()("PromptWriterFailure", {
  reason: Schema.String,
  usage: Schema.optional(
    Schema.Struct({ prompt_tokens: Schema.NonNegativeInt, completion_tokens: Schema.NonNegativeInt })
  )
}) {}
