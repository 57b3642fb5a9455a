import { Clock, Context, Effect, Either, Layer, Option } from "effect"
import * as SpanAttributes from "../observability/SpanAttributes.js"
import { Agents } from "../agents/Agents.js"
import type { AgentNotFound } from "../agents/AgentErrors.js"
import * as InitialContextTemplate from "../templates/InitialContextTemplate.js"
import type { OrganizationId } from "../organizations/Organization.js"
import { OutboundHttp } from "../outbound/OutboundHttp.js"
import * as CredentialHeader from "./CredentialHeader.js"
import type { Credential } from "./Credential.js"
import { CredentialStore } from "./CredentialStore.js"
import { IntegrationProvider } from "./IntegrationProvider.js"
import { type IntegrationProviderMissing } from "./ToolErrors.js"
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
import * as OperationSpans from "../observability/OperationSpans.js"

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

/**
 * What one call carried that a log of it must not show: the credential's secret and header value as
 * read for this call, each secret header's filled value and what filled its placeholders, an
 * integration's key; and the arguments a secret header reads (shown masked).
 */
export interface CallSecrets {
  readonly texts: ReadonlyArray<string>
  readonly argumentNames: ReadonlyArray<string>
}

/** A call's result and the secrets it carried. */
export interface ExecutedCall {
  readonly result: ToolResult
  readonly secrets: CallSecrets
}

const noSecrets: CallSecrets = { texts: [], argumentNames: [] }

/** The secrets known before a request is built: the credential's, and secret headers' literal values. */
const configuredSecrets = (config: HttpApiConfig, credential: Credential | null): ReadonlyArray<string> => [
  ...(credential === null ? [] : CredentialHeader.secretTexts(credential)),
  ...Object.entries(config.headers ?? {}).flatMap(([name, value]) =>
    isSecretHeader(name) && value.length > 0 ? [value] : []
  )
]

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
    /**
     * Runs the tool for this call (the tool's organization is the one whose credentials are used): its
     * result, and the secrets this very call carried, for a log of it.
     */
    readonly execute: (tool: Tool, call: ToolCall) => Effect.Effect<ExecutedCall, RunRefusal>
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
          return {
            result: failed({ type: "invalid_arguments", detail: checked.left }, config.error_message),
            secrets: { texts: [], argumentNames: ToolRequest.secretArgumentNames(config) }
          }
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
        const known = configuredSecrets(config, credential)
        const argumentNames = ToolRequest.secretArgumentNames(config)
        const built = ToolRequest.build(
          config,
          checked.right,
          call.initialContext,
          credential === null ? null : CredentialHeader.headerOf(credential)
        )
        if (Either.isLeft(built)) {
          return {
            result: failed(
              { type: "invalid_arguments", detail: String(ToolOutcome.scrub(built.left, known)) },
              config.error_message
            ),
            secrets: { texts: known, argumentNames }
          }
        }
        const { secrets: sent, ...request } = built.right
        const secrets = [...known, ...sent]
        const timeoutMs = ToolDeadline.timeoutMsOf(config)
        const answer = yield* Effect.either(
          outbound.send({
            ...request,
            timeout: timeoutMs,
            maxResponseBytes: ToolOutcome.maxResponseBytes
          })
        )
        const outcome = Either.match(answer, {
          onLeft: (failure) => ToolOutcome.fromFailure(failure.category, timeoutMs),
          onRight: (response) => ToolOutcome.fromResponse(config, response, secrets)
        })
        return {
          result: {
            ok: outcome.error === null,
            status_code: outcome.status_code,
            response: outcome.response,
            message: outcome.error === null ? null : (config.error_message ?? null),
            error: outcome.error
          },
          secrets: { texts: secrets, argumentNames }
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

    const execute = (tool: Tool, call: ToolCall): Effect.Effect<ExecutedCall, RunRefusal> =>
      Effect.gen(function* () {
        const started = yield* Clock.currentTimeMillis
        const definition = tool.definition
        let executed: { readonly result: Omit<ToolResult, "duration_ms">; readonly secrets: CallSecrets }
        switch (definition.type) {
          case "http_api":
            executed = yield* httpApi(tool.organization_id, definition.config, call)
            break
          case "transfer":
            executed = { result: transfer(definition.config, call), secrets: noSecrets }
            break
          case "end_call":
            executed = { result: endCall(definition.config, call), secrets: noSecrets }
            break
          case "integration": {
            const config = definition.config
            const secrets = {
              texts: config.api_key == null || config.api_key === "" ? [] : [config.api_key],
              argumentNames: []
            }
            const checked = ToolArguments.check(config.parameters, call.arguments)
            if (Either.isLeft(checked)) {
              executed = {
                result: failed({ type: "invalid_arguments", detail: checked.left }, null),
                secrets
              }
              break
            }
            const answer = yield* integrations.run(tool.organization_id, config, checked.right)
            executed = {
              result: {
                ok: answer.error === null,
                status_code: null,
                response: ToolOutcome.scrub(answer.response, secrets.texts),
                message: null,
                error: answer.error
              },
              secrets
            }
            break
          }
        }
        const finished = yield* Clock.currentTimeMillis
        return {
          result: { ...executed.result, duration_ms: Math.max(0, finished - started) },
          secrets: executed.secrets
        }
      })

    return {
      execute: OperationSpans.fn("ToolExecutor.execute")(execute, (effect, tool) =>
        SpanAttributes.annotated(effect, { organization_id: tool.organization_id })
      ),
      test: OperationSpans.fn("ToolExecutor.test")(function* (organizationId, toolUuid, call) {
        const tool = yield* tools.get(organizationId, toolUuid)
        if (tool.status === "archived") return yield* new ToolArchivedNotRun({ tool_uuid: toolUuid })
        const transferNumbers =
          call.agent_id === undefined
            ? []
            : (yield* agents.resolve(organizationId, call.agent_id)).workflow_configurations.transfer_numbers
        const executed = yield* execute(tool, {
          arguments: call.arguments ?? {},
          initialContext: call.initial_context ?? {},
          transferNumbers
        })
        return executed.result
      }, SpanAttributes.organization)
    }
  })
)
