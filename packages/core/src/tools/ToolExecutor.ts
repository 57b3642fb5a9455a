import { Clock, Context, Effect, Either, Layer, Option } from "effect"
import { Agents } from "../agents/Agents.js"
import type { AgentNotFound } from "../agents/AgentErrors.js"
import * as InitialContextTemplate from "../templates/InitialContextTemplate.js"
import type { OrganizationId } from "../organizations/Organization.js"
import { OutboundHttp } from "../outbound/OutboundHttp.js"
import * as CredentialHeader from "./CredentialHeader.js"
import { CredentialStore } from "./CredentialStore.js"
import { IntegrationProvider, type IntegrationProviderMissing } from "./IntegrationProvider.js"
import { isSecretHeader, type Tool } from "./Tool.js"
import * as ToolArguments from "./ToolArguments.js"
import * as ToolDeadline from "./ToolDeadline.js"
import type { EndCallConfig, HttpApiConfig, TransferConfig } from "./ToolDefinition.js"
import { CredentialNotFound, ToolArchivedNotRun, type ToolNotFound } from "./ToolErrors.js"
import * as ToolOutcome from "./ToolOutcome.js"
import * as ToolRequest from "./ToolRequest.js"
import type { ToolError, ToolResult } from "./ToolResult.js"
import { Tools } from "./Tools.js"
import * as TransferDestination from "./TransferDestination.js"

/** One call of a tool: the model's arguments, the run's initial context, the agent's transfer numbers. */
export interface ToolCall {
  readonly arguments: Readonly<Record<string, unknown>>
  readonly initialContext: Readonly<Record<string, unknown>>
  readonly transferNumbers: ReadonlyArray<string>
}

/** A test call from the API: like a call, with the agent (for its transfer numbers) named by id. */
export interface TestCall {
  readonly arguments?: Readonly<Record<string, unknown>> | undefined
  readonly initial_context?: Readonly<Record<string, unknown>> | undefined
  readonly agent_id?: string | undefined
}

/** Failures that are not a call's outcome but a refusal to run it. */
export type RunRefusal = IntegrationProviderMissing | CredentialNotFound

/**
 * Runs tools: renders an HTTP API tool's request from its definition, the arguments and the initial
 * context, sends it through the one guarded outbound client, and turns the answer into what goes back to
 * the model; resolves transfers by `TransferDestination`; answers an end-call's message; hands
 * integrations to the `IntegrationProvider` port. A failed call is a result (`ok: false`), not an error.
 */
export class ToolExecutor extends Context.Tag("@voice-agent-platform/core/ToolExecutor")<
  ToolExecutor,
  {
    /** Runs the tool for this call (the tool's organization is the one whose credentials are used). */
    readonly execute: (tool: Tool, call: ToolCall) => Effect.Effect<ToolResult, RunRefusal>
    /**
     * The secret texts a call of the tool carries (its credential's secret and header value, its secret
     * header values, an integration's key): what a log of the call must not show.
     */
    readonly secretsOf: (tool: Tool) => Effect.Effect<ReadonlyArray<string>>
    /** `POST /tools/{uuid}/test`: the organization's active tool, run once with the given arguments. */
    readonly test: (
      organizationId: OrganizationId,
      toolUuid: string,
      call: TestCall
    ) => Effect.Effect<ToolResult, RunRefusal | ToolNotFound | ToolArchivedNotRun | AgentNotFound>
  }
>() {}

const failed = (error: ToolError, message: string | null | undefined) => ({
  ok: false,
  status_code: null,
  response: null,
  message: message ?? null,
  error
})

export const layer = Layer.effect(
  ToolExecutor,
  Effect.gen(function* () {
    const outbound = yield* OutboundHttp
    const credentials = yield* CredentialStore
    const integrations = yield* IntegrationProvider
    const tools = yield* Tools
    const agents = yield* Agents

    const httpApi = (organizationId: OrganizationId, config: HttpApiConfig, call: ToolCall) =>
      Effect.gen(function* () {
        const checked = ToolArguments.check(config.parameters, call.arguments)
        if (Either.isLeft(checked)) {
          return failed({ type: "invalid_arguments", detail: checked.left }, config.error_message)
        }
        const credentialUuid = config.credential_uuid ?? null
        const credential =
          credentialUuid === null
            ? null
            : yield* Effect.flatMap(credentials.find(organizationId, credentialUuid), (found) =>
                Option.isSome(found)
                  ? Effect.succeed(found.value)
                  : Effect.fail(new CredentialNotFound({ credential_uuid: credentialUuid }))
              )
        const secrets = [
          ...(credential === null ? [] : CredentialHeader.secretTexts(credential)),
          ...Object.entries(config.headers ?? {}).flatMap(([name, value]) =>
            isSecretHeader(name) && value.length > 0 ? [value] : []
          )
        ]
        const built = ToolRequest.build(
          config,
          checked.right,
          call.initialContext,
          credential === null ? null : CredentialHeader.headerOf(credential)
        )
        if (Either.isLeft(built)) {
          return failed(
            { type: "invalid_arguments", detail: String(ToolOutcome.scrub(built.left, secrets)) },
            config.error_message
          )
        }
        const timeoutMs = ToolDeadline.timeoutMsOf(config)
        const answer = yield* Effect.either(
          outbound.send({
            ...built.right,
            timeout: timeoutMs,
            maxResponseBytes: ToolOutcome.maxResponseBytes
          })
        )
        const outcome = Either.match(answer, {
          onLeft: (failure) => ToolOutcome.fromFailure(failure.category, timeoutMs),
          onRight: (response) => ToolOutcome.fromResponse(config, response, secrets)
        })
        return {
          ok: outcome.error === null,
          status_code: outcome.status_code,
          response: outcome.response,
          message: outcome.error === null ? null : (config.error_message ?? null),
          error: outcome.error
        }
      })

    const transfer = (config: TransferConfig, call: ToolCall) => {
      const checked = ToolArguments.check(config.parameters, call.arguments, ["destination_number"])
      if (Either.isLeft(checked)) return failed({ type: "invalid_arguments", detail: checked.left }, null)
      const message =
        config.message == null
          ? null
          : InitialContextTemplate.render(config.message, { ...call.initialContext })
      return Either.match(
        TransferDestination.resolve(
          call.arguments["destination_number"],
          call.transferNumbers,
          config.destination_number
        ),
        {
          onLeft: () =>
            failed(
              {
                type: "no_transfer_destination",
                detail:
                  "the model named no number among the agent's transfer_numbers and the tool has no destination_number"
              },
              null
            ),
          onRight: (destination) => ({
            ok: true,
            status_code: null,
            response: { action: "transfer", destination_number: destination },
            message,
            error: null
          })
        }
      )
    }

    const endCall = (config: EndCallConfig, call: ToolCall) => {
      const checked = ToolArguments.check(null, call.arguments)
      if (Either.isLeft(checked)) return failed({ type: "invalid_arguments", detail: checked.left }, null)
      const message =
        config.messageType === "custom" && config.customMessage != null
          ? InitialContextTemplate.render(config.customMessage, { ...call.initialContext })
          : null
      return { ok: true, status_code: null, response: { action: "end_call", message }, message, error: null }
    }

    const execute = (tool: Tool, call: ToolCall): Effect.Effect<ToolResult, RunRefusal> =>
      Effect.gen(function* () {
        const started = yield* Clock.currentTimeMillis
        const definition = tool.definition
        let result: Omit<ToolResult, "duration_ms">
        switch (definition.type) {
          case "http_api":
            result = yield* httpApi(tool.organization_id, definition.config, call)
            break
          case "transfer":
            result = transfer(definition.config, call)
            break
          case "end_call":
            result = endCall(definition.config, call)
            break
          case "integration": {
            const config = definition.config
            const checked = ToolArguments.check(config.parameters, call.arguments)
            if (Either.isLeft(checked)) {
              result = failed({ type: "invalid_arguments", detail: checked.left }, null)
              break
            }
            const answer = yield* integrations.run(tool.organization_id, config, checked.right)
            const secrets = config.api_key == null || config.api_key === "" ? [] : [config.api_key]
            result = {
              ok: answer.error === null,
              status_code: null,
              response: ToolOutcome.scrub(answer.response, secrets),
              message: null,
              error: answer.error
            }
            break
          }
        }
        const finished = yield* Clock.currentTimeMillis
        return { ...result, duration_ms: Math.max(0, finished - started) }
      })

    const secretsOf = (tool: Tool): Effect.Effect<ReadonlyArray<string>> => {
      const definition = tool.definition
      if (definition.type === "integration") {
        const key = definition.config.api_key
        return Effect.succeed(key == null || key === "" ? [] : [key])
      }
      if (definition.type !== "http_api") return Effect.succeed([])
      const config = definition.config
      const headers = Object.entries(config.headers ?? {}).flatMap(([name, value]) =>
        isSecretHeader(name) && value.length > 0 ? [value] : []
      )
      const credentialUuid = config.credential_uuid ?? null
      if (credentialUuid === null) return Effect.succeed(headers)
      return Effect.map(credentials.find(tool.organization_id, credentialUuid), (found) => [
        ...headers,
        ...(Option.isSome(found) ? CredentialHeader.secretTexts(found.value) : [])
      ])
    }

    return {
      execute,
      secretsOf,
      test: (organizationId, toolUuid, call) =>
        Effect.gen(function* () {
          const tool = yield* tools.get(organizationId, toolUuid)
          if (tool.status === "archived") return yield* new ToolArchivedNotRun({ tool_uuid: toolUuid })
          const transferNumbers =
            call.agent_id === undefined
              ? []
              : (yield* agents.resolve(organizationId, call.agent_id)).workflow_configurations
                  .transfer_numbers
          return yield* execute(tool, {
            arguments: call.arguments ?? {},
            initialContext: call.initial_context ?? {},
            transferNumbers
          })
        })
    }
  })
)
