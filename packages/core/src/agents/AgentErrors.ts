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
