import { Schema } from "effect"

/** No tool of the caller's organization has this `tool_uuid`. */
export class ToolNotFound extends Schema.TaggedError<ToolNotFound>()("ToolNotFound", {
  tool_uuid: Schema.String
}) {
  override get message() {
    return `Tool ${this.tool_uuid} not found`
  }
}

/** An archived tool is kept for the record and no longer changes. */
export class ToolArchived extends Schema.TaggedError<ToolArchived>()("ToolArchived", {
  tool_uuid: Schema.String
}) {
  override get message() {
    return `tool_archived: tool ${this.tool_uuid} is archived and can no longer be changed; create a new tool instead`
  }
}

/** No credential of the caller's organization has this `credential_uuid`. */
export class CredentialNotFound extends Schema.TaggedError<CredentialNotFound>()("CredentialNotFound", {
  credential_uuid: Schema.String
}) {
  override get message() {
    return `Credential ${this.credential_uuid} not found`
  }
}

/** A credential that active tools authenticate with cannot be deleted from under them. */
export class CredentialInUse extends Schema.TaggedError<CredentialInUse>()("CredentialInUse", {
  credential_uuid: Schema.String,
  tool_uuids: Schema.Array(Schema.String)
}) {
  override get message() {
    return `credential_in_use: credential ${this.credential_uuid} is used by the active tools ${this.tool_uuids.join(", ")}; archive them or point them at another credential first`
  }
}

/** An archived tool is no agent's any more: it is not run, not even as a test. */
export class ToolArchivedNotRun extends Schema.TaggedError<ToolArchivedNotRun>()("ToolArchivedNotRun", {
  tool_uuid: Schema.String
}) {
  override get message() {
    return `tool_archived: tool ${this.tool_uuid} is archived and is no longer run; create a new tool instead`
  }
}

/** No adapter runs this provider's integration tools in this deployment. */
export class IntegrationProviderMissing extends Schema.TaggedError<IntegrationProviderMissing>()(
  "IntegrationProviderMissing",
  { provider: Schema.String }
) {
  override get message() {
    return `integration_provider_missing: no integration provider adapter for ${JSON.stringify(this.provider)} is installed in this engine, so integration tools cannot run`
  }
}
