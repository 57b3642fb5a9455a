import { CallingClock } from "@voice-agent-platform/core/testing"
import { dialableNumbers } from "../../campaigns/DialableNumbers.js"

export { dialableNumbers }

/** A valid number outside calling hours (New York before 08:00) on a server started at `CallingClock.env()`. */
export const numberOutsideCallingHours = CallingClock.outside
