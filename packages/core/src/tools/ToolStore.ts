import { Context, type Effect, type Option } from "effect"
import type { OrganizationId } from "../organizations/Organization.js"
import type { Page, PageRequest } from "../pagination/Page.js"
import type { Tool, ToolStatus } from "./Tool.js"

export type NewTool = Omit<Tool, "id" | "created_at" | "updated_at">
export type ToolPatch = Partial<
  Pick<Tool, "name" | "description" | "category" | "icon" | "icon_color" | "status" | "definition">
>

/** Storage of tools, by `tool_uuid`. */
export class ToolStore extends Context.Tag("@voice-agent-platform/core/ToolStore")<
  ToolStore,
  {
    readonly insert: (tool: NewTool, now: Date) => Effect.Effect<Tool>
    readonly find: (organizationId: OrganizationId, toolUuid: string) => Effect.Effect<Option.Option<Tool>>
    /**
     * The organization's tools among `toolUuids`, in one read (an agent version's tools, read on every
     * turn of a conversation): missing ones and other organizations' are left out; in no set order.
     */
    readonly findMany: (
      organizationId: OrganizationId,
      toolUuids: ReadonlyArray<string>
    ) => Effect.Effect<ReadonlyArray<Tool>>
    /** The same, held until the surrounding transaction ends (a row lock in SQL), for a read-decide-write. */
    readonly findForUpdate: (
      organizationId: OrganizationId,
      toolUuid: string
    ) => Effect.Effect<Option.Option<Tool>>
    /**
     * The uuids of the organization's active tools whose definition uses the credential, oldest first
     * (every one: a credential serves a handful of tools).
     */
    readonly activeUsingCredential: (
      organizationId: OrganizationId,
      credentialUuid: string
    ) => Effect.Effect<ReadonlyArray<string>>
    readonly list: (
      organizationId: OrganizationId,
      filter: { readonly status?: ToolStatus },
      page: PageRequest
    ) => Effect.Effect<Page<Tool>>
    readonly update: (
      organizationId: OrganizationId,
      toolUuid: string,
      patch: ToolPatch,
      now: Date
    ) => Effect.Effect<Option.Option<Tool>>
  }
>() {}
