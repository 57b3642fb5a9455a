import type { Run } from "../runs/Run.js"

/** The file keys of a run, as the rule reads them. */
export type RunFilesLike = Run["files"]

const dayMillis = 24 * 60 * 60 * 1000

/**
 * Runs that ended at or before this instant have outlived the organization's retention; null when the
 * organization keeps files for good (no retention set). Days are 24-hour days, independent of time zones.
 */
export const cutoff = (retentionDays: number | null, now: Date): Date | null =>
  retentionDays === null ? null : new Date(now.getTime() - retentionDays * dayMillis)

/** True when the run has a file key left to sweep. */
export const hasFiles = (run: Pick<Run, "files">): boolean =>
  run.files.recording !== null || run.files.transcript !== null

/** True when the run's files are due for removal: it ended, has files, and ended_at + retention days <= now. */
export const isDue = (
  run: Pick<Run, "ended_at" | "files">,
  retentionDays: number | null,
  now: Date
): boolean => {
  const before = cutoff(retentionDays, now)
  return (
    before !== null && run.ended_at !== null && hasFiles(run) && run.ended_at.getTime() <= before.getTime()
  )
}

/** The storage keys a sweep removes for a due run. */
export const keys = (run: Pick<Run, "files">): ReadonlyArray<string> =>
  [run.files.recording, run.files.transcript].filter((key): key is string => key !== null)
