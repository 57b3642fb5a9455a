import { Data } from "effect"

/** A defect: no allowed instant within the search limit (no candidate set in the data can cause it). */
export class NoCallingWindow extends Data.TaggedError("NoCallingWindow")<{
  readonly zones: ReadonlyArray<string>
  readonly from: Date
}> {}
