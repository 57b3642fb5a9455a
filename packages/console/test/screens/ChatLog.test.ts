import { describe, expect, it } from "@effect/vitest"
import { ImprovementDecision } from "@voice-agent-platform/core"
import { acceptedPrompt } from "../../src/screens/agents/AcceptedPrompt.js"
import { applyEvent, emptyLog, sent, streamClosed } from "../../src/screens/agents/ChatLog.js"

const event = (name: string, data: unknown) => ({ event: name, data: JSON.stringify(data) })

describe("a chat as the console keeps it", () => {
  it("joins the deltas while the reply is written, notes tools, and keeps the whole reply once done", () => {
    let log = sent(emptyLog, "What is the weather?")
    log = applyEvent(log, event("delta", { text: "It is " }))
    expect(log.writing).toBe("It is ")
    log = applyEvent(
      log,
      event("tool_call", { tool_uuid: "t", name: "Weather", ok: false, error: "timeout" })
    )
    log = applyEvent(log, event("delta", { text: "sunny." }))
    log = applyEvent(log, event("done", { reply: { role: "assistant", text: "It is sunny." }, ended: false }))
    expect(log).toEqual({
      entries: [
        { kind: "said", role: "user", text: "What is the weather?" },
        { kind: "tool", name: "Weather", ok: false, error: "timeout" },
        { kind: "said", role: "assistant", text: "It is sunny." }
      ],
      writing: undefined,
      ended: false,
      failure: undefined
    })
    expect(applyEvent(log, event("done", { reply: { text: "Bye." }, ended: true })).ended).toBe(true)
  })

  it("drops a reply that failed or was cut off, and says why", () => {
    const failed = applyEvent(
      applyEvent(sent(emptyLog, "Hi"), event("delta", { text: "Hel" })),
      event("error", { status: 503, detail: "model_unavailable" })
    )
    expect(failed).toMatchObject({ writing: undefined, failure: "model_unavailable" })
    expect(failed.entries).toHaveLength(1)
    expect(
      streamClosed(applyEvent(sent(emptyLog, undefined), event("delta", { text: "Hel" })))
    ).toMatchObject({
      writing: undefined,
      failure: "The reply was cut off."
    })
    // unknown events and unreadable data change nothing
    const log = sent(emptyLog, "Hi")
    expect(applyEvent(log, { event: "delta", data: "not json" })).toEqual(log)
    expect(applyEvent(log, event("ping", {}))).toEqual(log)
  })

  it("shows the prompt an accepted suggestion makes as the API makes it", () => {
    const definition = { system_prompt: "You are Ada." } as Parameters<typeof ImprovementDecision.applyTo>[0]
    expect(acceptedPrompt("You are Ada.", "Be brief.")).toBe(
      ImprovementDecision.applyTo(definition, "Be brief.").system_prompt
    )
  })
})
