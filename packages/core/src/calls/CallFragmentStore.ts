import { Context, type Effect, type Option } from "effect"
import type { TokenUsage } from "../language-model/LanguageModel.js"
import type { OrganizationId } from "../organizations/Organization.js"
import type { Run } from "../runs/Run.js"
import type { RunId } from "../runs/RunId.js"
import type { TranscriptFragment } from "../transcripts/Transcript.js"

/**
 * The transcript fragments of live calls, kept until the call ends and its transcript file is written.
 * They live in storage, not in a process, so that any server process may receive a call's events and the
 * one that receives `ended` sees them all. Every operation is scoped to one organization.
 */
export class CallFragmentStore extends Context.Tag("@voice-agent-platform/core/CallFragmentStore")<
  CallFragmentStore,
  {
    /**
     * Adds fragments to the run's, in their order, and marks the run (`Run.fragments_kept`), in one step
     * (a chat turn's message and reply are one write); appending never loses a concurrent append. None is
     * nothing.
     */
    readonly append: (
      organizationId: OrganizationId,
      runId: RunId,
      fragments: ReadonlyArray<TranscriptFragment>
    ) => Effect.Effect<void>
    /**
     * `append`, only while the run is not final (`isFinal`), the run held as `RunStore.findForUpdate`
     * holds it, in one step (a live call's fragment: one statement, not a transaction's four; a call's end,
     * which reads the fragments while it holds the run, never misses one). With `modelUsage`, the same step
     * adds the tokens to the run's and sets its last activity (`RunStore.addModelUsage`: a chat turn's
     * message, reply and tokens are one statement, not a transaction's five). Answers the run as it was
     * read, or as written with `modelUsage`; none, writing nothing, when the organization has no such run
     * or it is final.
     */
    readonly appendWhileLive: (
      organizationId: OrganizationId,
      runId: RunId,
      fragments: ReadonlyArray<TranscriptFragment>,
      modelUsage?: { readonly usage: TokenUsage; readonly lastActivityAt: Date }
    ) => Effect.Effect<Option.Option<Run>>
    /** The run's fragments in the order they were appended (none when there are none). */
    readonly list: (
      organizationId: OrganizationId,
      runId: RunId
    ) => Effect.Effect<ReadonlyArray<TranscriptFragment>>
    /** Forgets the run's fragments, once they are saved in its transcript file. */
    readonly clear: (organizationId: OrganizationId, runId: RunId) => Effect.Effect<void>
  }
>() {}
