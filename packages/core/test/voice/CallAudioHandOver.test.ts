import { describe, expect, it } from "@effect/vitest"
import * as CallAudioHandOver from "../../src/voice/CallAudioHandOver.js"

const log = (message: string) => ({ timestamp: new Date(0), level: "info" as const, message })

describe("CallAudioHandOver", () => {
  it("a run awaits the hand-over while its audio connected more often than it was handed over", () => {
    const { connectedMessage: connected, handedOverMessage: handedOver } = CallAudioHandOver
    const awaits = (...messages: Array<string>) =>
      CallAudioHandOver.awaitsHandOver({ logs: messages.map(log) })
    expect(awaits()).toBe(false)
    expect(awaits("Turn 1 latency: …")).toBe(false)
    expect(awaits(connected)).toBe(true)
    expect(awaits(connected, "The caller hung up", handedOver)).toBe(false)
    // a second socket for the call (a reconnect): live again until it hands over too
    expect(awaits(connected, handedOver, connected)).toBe(true)
    expect(awaits(connected, connected, handedOver)).toBe(true)
    expect(awaits(connected, connected, handedOver, handedOver)).toBe(false)
    // the lines are matched whole, not by their beginning
    expect(awaits(`${connected} again`)).toBe(false)
  })
})
