import { Context, type Effect, type Option } from "effect"
import type { OrganizationId } from "../organizations/Organization.js"
import type { Page, PageRequest } from "../pagination/Page.js"
import type { Trigger, TriggerId, TriggerStatus } from "./Trigger.js"

/** Storage of triggers. Every operation is scoped to one organization. */
export class TriggerStore extends Context.Tag("@voice-agent-platform/core/TriggerStore")<
  TriggerStore,
  {
    /** Stores a new trigger (its id is drawn by the caller). */
    readonly insert: (trigger: Trigger) => Effect.Effect<Trigger>
    readonly find: (organizationId: OrganizationId, id: TriggerId) => Effect.Effect<Option.Option<Trigger>>
    /** The organization's triggers, newest first. */
    readonly list: (
      organizationId: OrganizationId,
      filter: { readonly status?: TriggerStatus },
      page: PageRequest
    ) => Effect.Effect<Page<Trigger>>
    /** Marks the trigger archived (again is a no-op) and answers it; None when there is none of theirs. */
    readonly archive: (organizationId: OrganizationId, id: TriggerId) => Effect.Effect<Option.Option<Trigger>>
  }
>() {}
