import { Clock, Context, Effect, Layer, Option } from "effect"
import * as SpanAttributes from "../observability/SpanAttributes.js"
import type { OrganizationId } from "../organizations/Organization.js"
import type { Page, PageRequest } from "../pagination/Page.js"
import { SecureRandom, uuidV4 } from "../randomness/SecureRandom.js"
import { Transactions } from "../storage/Transactions.js"
import { CredentialStore } from "./CredentialStore.js"
import type { CreateToolRequest, Tool, ToolStatus } from "./Tool.js"
import type { ToolDefinition } from "./ToolDefinition.js"
import { CredentialNotFound, ToolArchived, ToolNotFound } from "./ToolErrors.js"
import { ToolStore } from "./ToolStore.js"
import * as ToolUpdate from "./ToolUpdate.js"
import * as OperationSpans from "../observability/OperationSpans.js"

/**
 * Tools agents call during conversations. Records carry their secrets (an integration's `api_key`):
 * the API strips them with `Tool.withoutSecrets`, the voice runtime needs them.
 */
export class Tools extends Context.Tag("@voice-agent-platform/core/Tools")<
  Tools,
  {
    /** Creates an active tool; an HTTP API definition's `credential_uuid` must name a stored credential. */
    readonly create: (
      organizationId: OrganizationId,
      request: CreateToolRequest
    ) => Effect.Effect<Tool, CredentialNotFound>
    readonly get: (organizationId: OrganizationId, toolUuid: string) => Effect.Effect<Tool, ToolNotFound>
    /** A page of tools, newest first, optionally of one status. */
    readonly list: (
      organizationId: OrganizationId,
      filter: { readonly status?: ToolStatus },
      page: PageRequest
    ) => Effect.Effect<Page<Tool>>
    /** Changes an active tool; omitted fields stay as they are (see `ToolUpdate.patch`). */
    readonly update: (
      organizationId: OrganizationId,
      toolUuid: string,
      changes: ToolUpdate.ToolChanges
    ) => Effect.Effect<Tool, ToolNotFound | ToolArchived | CredentialNotFound>
    /** Archives the tool; archiving an archived tool answers it unchanged. */
    readonly archive: (organizationId: OrganizationId, toolUuid: string) => Effect.Effect<Tool, ToolNotFound>
  }
>() {}

export const layer = Layer.effect(
  Tools,
  Effect.gen(function* () {
    const tools = yield* ToolStore
    const credentials = yield* CredentialStore
    const transactions = yield* Transactions
    const random = yield* SecureRandom
    const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

    const found = (toolUuid: string) => (tool: Option.Option<Tool>) =>
      Option.isSome(tool)
        ? Effect.succeed(tool.value)
        : Effect.fail(new ToolNotFound({ tool_uuid: toolUuid }))
    const find = (organizationId: OrganizationId, toolUuid: string) =>
      Effect.flatMap(tools.find(organizationId, toolUuid), found(toolUuid))
    /** The tool, held until the write's transaction ends: concurrent changes take turns, none is lost. */
    const findHeld = (organizationId: OrganizationId, toolUuid: string) =>
      Effect.flatMap(tools.findForUpdate(organizationId, toolUuid), found(toolUuid))

    /** The definition's credential must exist in the organization (checked inside the write's transaction). */
    const checkCredential = (organizationId: OrganizationId, definition: ToolDefinition) => {
      const credentialUuid = ToolUpdate.credentialUuidOf(definition)
      return credentialUuid === null
        ? Effect.void
        : // held, so that the credential cannot be deleted before this write commits
          Effect.flatMap(credentials.findForUpdate(organizationId, credentialUuid), (credential) =>
            Option.isSome(credential)
              ? Effect.void
              : Effect.fail(new CredentialNotFound({ credential_uuid: credentialUuid }))
          )
    }

    return {
      create: OperationSpans.fn("Tools.create")(function* (organizationId, request) {
        const toolUuid = yield* Effect.provideService(uuidV4, SecureRandom, random)
        const definition = ToolUpdate.withStoredDefaults(request.definition)
        return yield* transactions.run(
          Effect.gen(function* () {
            yield* checkCredential(organizationId, definition)
            return yield* tools.insert(
              {
                tool_uuid: toolUuid,
                organization_id: organizationId,
                name: request.name,
                description: request.description ?? null,
                category: ToolUpdate.categoryFor(request.category, definition),
                icon: request.icon,
                icon_color: request.icon_color,
                status: "active",
                definition,
                created_by: null
              },
              yield* now
            )
          })
        )
      }, SpanAttributes.organization),
      get: OperationSpans.fn("Tools.get")(find, SpanAttributes.organization),
      list: OperationSpans.fn("Tools.list")(
        (organizationId, filter, page) => tools.list(organizationId, filter, page),
        SpanAttributes.organization
      ),
      update: OperationSpans.fn("Tools.update")(
        (organizationId, toolUuid, changes) =>
          transactions.run(
            Effect.gen(function* () {
              const current = yield* findHeld(organizationId, toolUuid)
              if (current.status === "archived") return yield* new ToolArchived({ tool_uuid: toolUuid })
              const patch = ToolUpdate.patch(current, changes)
              if (Object.keys(patch).length === 0) return current
              if (patch.definition !== undefined) yield* checkCredential(organizationId, patch.definition)
              const updated = yield* tools.update(organizationId, toolUuid, patch, yield* now)
              return Option.getOrElse(updated, () => current)
            })
          ),
        SpanAttributes.organization
      ),
      archive: OperationSpans.fn("Tools.archive")(
        (organizationId, toolUuid) =>
          transactions.run(
            Effect.gen(function* () {
              const current = yield* findHeld(organizationId, toolUuid)
              if (current.status === "archived") return current
              const archived = yield* tools.update(
                organizationId,
                toolUuid,
                { status: "archived" },
                yield* now
              )
              return Option.getOrElse(archived, () => current)
            })
          ),
        SpanAttributes.organization
      )
    }
  })
)
