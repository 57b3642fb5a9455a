import { Context, Effect, Either, Layer, Option } from "effect"
import * as SpanAttributes from "../observability/SpanAttributes.js"
import { BlobStore } from "../files/BlobStore.js"
import type { OrganizationId } from "../organizations/Organization.js"
import type { Run } from "../runs/Run.js"
import { isLive } from "../runs/Run.js"
import { RunFileNotAvailable, RunNotFound } from "../runs/RunErrors.js"
import type { RunId } from "../runs/RunId.js"
import { RunStore } from "../runs/RunStore.js"
import type { TranscriptFragment, TranscriptTurn } from "./Transcript.js"
import * as TranscriptFile from "./TranscriptFile.js"
import * as TranscriptTurns from "./TranscriptTurns.js"
import * as OperationSpans from "../observability/OperationSpans.js"

/** A run's transcript: the turns and the storage key of the raw file they were read from. */
export interface RunTranscript {
  readonly run: Run
  /** The file's fragments as a transcript shows them (`TranscriptTurns.shownFragments`), in order. */
  readonly fragments: ReadonlyArray<TranscriptFragment>
  readonly turns: ReadonlyArray<TranscriptTurn>
  readonly file_key: string
}

/** The media type of the raw transcript file. */
export const contentType = "text/plain; charset=utf-8"

/** Where a run's raw transcript is stored. */
export const fileKey = (organizationId: OrganizationId, runId: RunId): string =>
  `organizations/${organizationId}/runs/${runId}/transcript.txt`

/**
 * Transcripts of runs. The raw file (one fragment per line) is the record; turns are always derived
 * from it, so the turns an API returns equal the merge of the file a link downloads.
 */
export class Transcripts extends Context.Tag("@voice-agent-platform/core/Transcripts")<
  Transcripts,
  {
    /** Writes the run's raw transcript file and links it to the run. */
    readonly save: (
      organizationId: OrganizationId,
      runId: RunId,
      fragments: ReadonlyArray<TranscriptFragment>
    ) => Effect.Effect<string, RunNotFound>
    /** The run's turns; not available while the call is live, when it has none, or after its file was removed. */
    readonly read: (
      organizationId: OrganizationId,
      runId: RunId
    ) => Effect.Effect<RunTranscript, RunNotFound | RunFileNotAvailable>
  }
>() {}

export const layer = Layer.effect(
  Transcripts,
  Effect.gen(function* () {
    const runs = yield* RunStore
    const blobs = yield* BlobStore

    const findRun = (organizationId: OrganizationId, runId: RunId) =>
      Effect.flatMap(
        runs.find(organizationId, runId),
        Option.match({
          onNone: () => Effect.fail(new RunNotFound({ workflow_run_id: runId })),
          onSome: Effect.succeed
        })
      )

    return {
      save: OperationSpans.fn("Transcripts.save")(function* (organizationId, runId, fragments) {
        const run = yield* findRun(organizationId, runId)
        const key = fileKey(organizationId, runId)
        yield* blobs.put(key, {
          bytes: new TextEncoder().encode(TranscriptFile.render(fragments)),
          content_type: contentType
        })
        yield* runs.update(organizationId, runId, { files: { ...run.files, transcript: key } })
        return key
      }, SpanAttributes.organizationRun),
      read: OperationSpans.fn("Transcripts.read")(function* (organizationId, runId) {
        const run = yield* findRun(organizationId, runId)
        const unavailable = (reason: RunFileNotAvailable["reason"]) =>
          new RunFileNotAvailable({ workflow_run_id: runId, file: "transcript", reason })
        if (isLive(run.status)) return yield* unavailable("in_progress")
        const key = run.files.transcript
        if (key === null) return yield* unavailable("not_recorded")
        const blob = yield* blobs.get(key)
        if (Option.isNone(blob)) return yield* unavailable("deleted")
        const parsed = TranscriptFile.parse(new TextDecoder().decode(blob.value.bytes))
        if (Either.isLeft(parsed)) {
          return yield* Effect.die(parsed.left)
        }
        return {
          run,
          fragments: TranscriptTurns.shownFragments(parsed.right),
          turns: TranscriptTurns.merge(parsed.right),
          file_key: key
        }
      }, SpanAttributes.organizationRun)
    }
  })
)
