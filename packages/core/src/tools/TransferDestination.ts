import { Either } from "effect"
import * as E164 from "../phone-numbers/E164.js"

/** Neither an allowed model-supplied number nor the tool's own number. */
export interface NoTransferDestination {
  readonly _tag: "NoTransferDestination"
}

const normalized = (number: string): string | undefined => Either.getOrUndefined(E164.normalize(number))

/**
 * Where a transfer goes. A number the model supplies is used only when, normalised to E.164, it is one
 * of the agent's `transfer_numbers` (themselves compared in E.164); anything else the model says is
 * ignored and the tool's own `destination_number` is used; with neither there is no destination.
 */
export const resolve = (
  supplied: unknown,
  transferNumbers: ReadonlyArray<string>,
  toolNumber: string | null | undefined
): Either.Either<string, NoTransferDestination> => {
  if (typeof supplied === "string") {
    const wanted = normalized(supplied)
    if (wanted !== undefined && transferNumbers.some((number) => normalized(number) === wanted)) {
      return Either.right(wanted)
    }
  }
  const own = toolNumber?.trim() ?? ""
  return own === "" ? Either.left({ _tag: "NoTransferDestination" }) : Either.right(normalized(own) ?? own)
}
