import { Context, Layer } from "effect"

/** How analysis work is done: configuration with defaults (docs/configuration.md, docs/limits.md). */
export interface AnalysisSetting {
  /**
   * How long a claimed job is held before another server may take it over (`ANALYSIS_LEASE_SECONDS`,
   * default 120): longer than a model request may take (`LLM_TIMEOUT_MS`), or a slow job is done twice.
   */
  readonly leaseSeconds: number
  /** Attempts of a job before its run's analysis is `failed` (a transient model failure is tried again). */
  readonly maxAttempts: number
  /**
   * A generation of improvement suggestions after every so many analysed runs of an agent
   * (`IMPROVEMENTS_EVERY_RUNS`, default 20); 0 turns it off.
   */
  readonly improvementsEveryRuns: number
  /** Jobs one server works on at once. */
  readonly jobsAtOnce: number
  /** How often a server looks for due jobs, in milliseconds. */
  readonly pollMillis: number
}

export const defaults: AnalysisSetting = {
  leaseSeconds: 120,
  maxAttempts: 5,
  improvementsEveryRuns: 20,
  jobsAtOnce: 4,
  pollMillis: 1_000
}

/** The bounds the variables may take. */
export const bounds = {
  leaseSeconds: { min: 5, max: 3_600 },
  improvementsEveryRuns: { min: 0, max: 100_000 }
} as const

export class AnalysisSettings extends Context.Reference<AnalysisSettings>()(
  "@voice-agent-platform/core/AnalysisSettings",
  { defaultValue: (): AnalysisSetting => defaults }
) {}

export const layer = (setting: Partial<AnalysisSetting>): Layer.Layer<AnalysisSettings> =>
  Layer.succeed(AnalysisSettings, { ...defaults, ...setting })
