import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { organizations } from "./organizations.js"
import { agents } from "./agents.js"
import { improvements } from "./improvements.js"
import { triggers } from "./triggers.js"
import { campaigns } from "./campaigns.js"
import { runs } from "./runs.js"
import { serverSecrets } from "./serverSecrets.js"
import { calls } from "./calls.js"
import { doNotCall } from "./doNotCall.js"
import { phoneNumbers } from "./phoneNumbers.js"
import { tools } from "./tools.js"
import { knowledgeBase } from "./knowledgeBase.js"
import { usage } from "./usage.js"
import { integrations } from "./integrations.js"
import { idempotency } from "./idempotency.js"
import { webhooks } from "./webhooks.js"

/**
 * Version 1 of the schema, one module per feature. Like every applied migration it is frozen: the schema
 * changes by adding a version, never by editing these statements.
 */
export const statements: ReadonlyArray<string> = [
  ...organizations,
  ...serverSecrets,
  ...agents,
  ...improvements,
  ...triggers,
  ...campaigns,
  ...runs,
  ...calls,
  ...doNotCall,
  ...phoneNumbers,
  ...tools,
  ...knowledgeBase,
  ...usage,
  ...integrations,
  ...idempotency,
  ...webhooks
]

export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  Effect.forEach(statements, (statement) => sql.unsafe(statement), { discard: true })
)
