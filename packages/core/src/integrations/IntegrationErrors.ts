import { Schema } from "effect"

export class IntegrationConnectionNotFound extends Schema.TaggedError<IntegrationConnectionNotFound>()(
  "IntegrationConnectionNotFound",
  { connection_id: Schema.String }
) {
  override get message() {
    return `Integration connection ${this.connection_id} not found`
  }
}
