import type { LanguageModelError } from "../language-model/LanguageModelErrors.js"
import { isTransient } from "../language-model/LanguageModelErrors.js"

/**
 * When a failed analysis job is tried again: transient model failures (unavailable, rate limited, out of
 * time) wait 10 s, 1 min, 5 min, 30 min … after the 1st, 2nd, 3rd, 4th failure (or longer when the
 * provider asked), until `maxAttempts` failures; a refusal or an input too long fails the same way every
 * time, so it is not tried again.
 */

/** The waits after the 1st, 2nd, … failure, in seconds; the last repeats. */
export const backoffSeconds: ReadonlyArray<number> = [10, 60, 300, 1_800]

/** The longest wait before another attempt, however long a provider asks for: an hour. */
export const longestWaitMillis = 60 * 60 * 1000

/** The verdict on a failed attempt. */
export type Verdict = { readonly _tag: "RetryAt"; readonly at: Date } | { readonly _tag: "GiveUp" }

/**
 * After the job's `failedBefore` earlier failures and this one (`error`) at `now`: try again at a time, or
 * give up (the run's analysis is `failed`).
 */
export const decide = (
  error: LanguageModelError,
  failedBefore: number,
  maxAttempts: number,
  now: Date
): Verdict => {
  const failures = failedBefore + 1
  if (!isTransient(error) || failures >= maxAttempts) return { _tag: "GiveUp" }
  const wait = backoffSeconds[Math.min(failures, backoffSeconds.length) - 1]! * 1000
  // a provider asking for longer than the longest back-off is waited out no longer than that
  const asked =
    error._tag === "ModelRateLimited" && error.retry_after_ms !== null
      ? Math.min(error.retry_after_ms, longestWaitMillis)
      : 0
  return { _tag: "RetryAt", at: new Date(now.getTime() + Math.max(wait, asked)) }
}
