import { CallingHours, TimeZoneCandidates } from "@voice-agent-platform/core"
import { dialableNumbers } from "../../campaigns/DialableNumbers.js"

export { dialableNumbers }

/** Numbers of one time zone each (as `DialableNumbers` has them): one of them is outside calling hours at any time. */
const samples = [
  "+48500222222",
  "+819022222222",
  "+919822222222",
  "+12122222222",
  "+14152222222",
  "+525522222222"
]

/** A valid number whose every time zone is outside calling hours (08:00–21:00) now and for the next minutes. */
export const numberOutsideCallingHours = (minutes = 20): string => {
  const now = new Date()
  const later = new Date(now.getTime() + minutes * 60_000)
  const outside = (number: string, at: Date) =>
    CallingHours.check(TimeZoneCandidates.forNumber(number), at)._tag !== "Allowed"
  const found = samples.find((number) => outside(number, now) && outside(number, later))
  if (found === undefined) throw new Error("no sample number is outside calling hours for the next minutes")
  return found
}
