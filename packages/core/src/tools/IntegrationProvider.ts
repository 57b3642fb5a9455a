import { Context, Effect, Layer } from "effect"
import type { OrganizationId } from "../organizations/Organization.js"
import type { CheckedArguments } from "./ToolArguments.js"
import type { IntegrationConfig } from "./ToolDefinition.js"
import type { ToolError } from "./ToolResult.js"
import { IntegrationProviderMissing } from "./ToolErrors.js"

/** What an integration answered: the response for the model, or why it failed. */
export interface IntegrationAnswer {
  readonly response: unknown
  readonly error: ToolError | null
}

/**
 * Runs `integration` tools (weather, CRM lookups…) against their provider. A port: the engine ships no
 * provider, and says so (`layerNone`) rather than pretending a call succeeded.
 */
export class IntegrationProvider extends Context.Tag("@voice-agent-platform/core/IntegrationProvider")<
  IntegrationProvider,
  {
    readonly run: (
      organizationId: OrganizationId,
      config: IntegrationConfig,
      args: CheckedArguments
    ) => Effect.Effect<IntegrationAnswer, IntegrationProviderMissing>
  }
>() {}

/** No provider installed: every integration tool call fails with `IntegrationProviderMissing`. */
export const layerNone: Layer.Layer<IntegrationProvider> = Layer.succeed(IntegrationProvider, {
  run: (_organizationId, config) => Effect.fail(new IntegrationProviderMissing({ provider: config.provider }))
})
