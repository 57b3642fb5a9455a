import { Schema } from "effect"

/** A run's number (`workflow_run_id`). */
export const RunId = Schema.Int.pipe(Schema.positive(), Schema.brand("RunId"))
export type RunId = typeof RunId.Type
