import { E164 } from "@voice-agent-platform/core"
import { CallingClock } from "@voice-agent-platform/core/testing"
import { Either } from "effect"

/**
 * `count` valid, distinct Warsaw numbers (`CallingClock.insidePrefix`): inside calling hours for hours on a
 * server started at `CallingClock.env()`, whatever the hour the test runs at.
 */
export const dialableNumbers = (count: number): ReadonlyArray<string> => {
  const numbers: Array<string> = []
  for (let i = 0; numbers.length < count && i < count * 20; i++) {
    const normalized = E164.normalize(
      `${CallingClock.insidePrefix}${String(200_000 + i * 7).padStart(6, "3")}`
    )
    if (Either.isRight(normalized) && !numbers.includes(normalized.right)) numbers.push(normalized.right)
  }
  if (numbers.length < count) throw new Error(`only ${numbers.length} valid numbers of ${count}`)
  return numbers
}
