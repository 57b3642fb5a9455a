import { describe, expect, it } from "@effect/vitest"
import * as NextReply from "../../../src/language-model/embedded/NextReply.js"
import type { ModelMessage } from "../../../src/language-model/LanguageModel.js"
import { emptyGuide } from "../../../src/language-model/LanguageModel.js"
import { checkOrder, clinic, converse, endCall, lines, shipped, tools } from "./EmbeddedFixtures.js"

const user = (content: string): ModelMessage => ({ role: "user", content })
const agent = (content: string): ModelMessage => ({ role: "assistant", content })

describe("NextReply", () => {
  it("walks the plan, answers questions, asks for each field and ends with end_call", () => {
    const { messages } = converse({ guide: clinic, tools }, [
      "Hi",
      "Yes, that's fine",
      "When are you open?",
      "It's jan@example.com",
      "four people",
      "yes please"
    ])
    expect(lines(messages)).toEqual([
      "A: Hello, this is Ann from Dental Care.",
      "U: Hi",
      "A: All right. Is Monday at 10 still fine for you?",
      "U: Yes, that's fine",
      "A: All right. What is your email?",
      "U: When are you open?",
      "A: We are open from 8 to 18 on weekdays. What is your email?",
      "U: It's jan@example.com",
      "A: Thank you. What is your party size?",
      "U: four people",
      "A: Thank you. Could you confirm, yes or no: Wants the newsletter?",
      "U: yes please",
      "A: Thank you for your time. Goodbye!",
      "call end_call({})"
    ])
  })

  it("calls a triggered function with arguments from the conversation, then answers from its result", () => {
    const { messages } = converse({ guide: clinic, tools }, ["Where is my order A-17?", "bye"])
    expect(lines(messages)).toEqual([
      "A: Hello, this is Ann from Dental Care.",
      "U: Where is my order A-17?",
      'call check_order({"order_id":"A-17"})',
      "result call_1",
      "A: Here is what I found: status: shipped, eta: 2026-03-01. Is Monday at 10 still fine for you?",
      "U: bye",
      "A: Thank you for your time. Goodbye!",
      "call end_call({})"
    ])
  })

  it("asks for a missing required argument, calls once it is given, or gives up after one more try", () => {
    const given = converse({ guide: clinic, tools }, ["Could you check my order?", "It's B-22"])
    expect(lines(given.messages).slice(1, 6)).toEqual([
      "U: Could you check my order?",
      "A: To check order, I need your order id. What is your order id?",
      "U: It's B-22",
      'call check_order({"order_id":"B-22"})',
      "result call_1"
    ])
    const refused = converse({ guide: clinic, tools }, ["Could you check my order?", "I don't know"])
    expect(lines(refused.messages).slice(3, 5)).toEqual([
      "U: I don't know",
      "A: I'm sorry, I can't check order without your order id. Is Monday at 10 still fine for you?"
    ])
  })

  it("calls a function once per conversation, never one not offered, and not at all with tool_choice none", () => {
    const twice = converse({ guide: clinic, tools }, ["check my order A-1", "check my order A-2", "bye"])
    expect(lines(twice.messages).filter((line) => line.startsWith("call check_order"))).toHaveLength(1)
    const notOffered = converse({ guide: clinic, tools: [endCall] }, ["check my order A-1", "bye"])
    expect(lines(notOffered.messages).filter((line) => line.startsWith("call check_order"))).toEqual([])
    const none = NextReply.next({
      guide: clinic,
      tools,
      tool_choice: "none",
      messages: [agent("Hello"), user("check my order A-1")]
    })
    expect(none.tool_calls).toEqual([])
    const goodbye = NextReply.next({
      guide: clinic,
      tools,
      tool_choice: "none",
      messages: [agent("Hello"), user("bye")]
    })
    expect(goodbye).toEqual({ text: "Thank you for your time. Goodbye!", tool_calls: [] })
  })

  it("numbers its calls on from the conversation's, skipping ids in use", () => {
    const reply = NextReply.next({
      guide: clinic,
      tools,
      messages: [
        { role: "assistant", content: "", tool_calls: [{ id: "call_2", name: "other", arguments: "{}" }] },
        { role: "tool", tool_call_id: "call_2", content: "{}" },
        agent("Done."),
        user("where is my order X-9")
      ]
    })
    expect(reply.tool_calls).toEqual([{ id: "call_3", name: "check_order", arguments: '{"order_id":"X-9"}' }])
  })

  it("closes politely with a busy or uninterested user, and on goodbye", () => {
    for (const said of ["I'm busy right now", "No thanks, not interested", "Nie mam czasu"]) {
      const reply = NextReply.next({ guide: clinic, tools, messages: [agent("Hello"), user(said)] })
      expect(reply.text).toBe("I understand. Thank you for your time. Goodbye!")
      expect(reply.tool_calls.map((call) => call.name)).toEqual(["end_call"])
    }
    expect(
      NextReply.next({ guide: clinic, tools: [checkOrder], messages: [agent("Hello"), user("Goodbye!")] })
    ).toEqual({
      text: "Thank you for your time. Goodbye!",
      tool_calls: []
    })
  })

  it("answers a question it cannot answer with the fallback", () => {
    const reply = NextReply.next({
      guide: clinic,
      tools,
      messages: [agent("Hello"), user("Do you treat cats?")]
    })
    expect(reply.text).toBe("I'm sorry, I don't have that information. Is Monday at 10 still fine for you?")
  })

  it("answers from the knowledge when the FAQ has nothing", () => {
    const reply = NextReply.next({
      guide: clinic,
      tools,
      messages: [agent("Hello"), user("Is parking free for patients?")]
    })
    expect(reply.text).toBe(
      "Parking is free for patients behind the building. Is Monday at 10 still fine for you?"
    )
  })

  it("opens with the first message when the user spoke first", () => {
    expect(NextReply.next({ guide: clinic, tools, messages: [user("Hi there")] }).text).toBe(
      "Hello, this is Ann from Dental Care. Is Monday at 10 still fine for you?"
    )
    expect(
      NextReply.next({ guide: clinic, tools, messages: [user("Where is my order Q-1?")] })
    ).toMatchObject({
      text: "Hello, this is Ann from Dental Care.",
      tool_calls: [{ name: "check_order", arguments: '{"order_id":"Q-1"}' }]
    })
  })

  it("answers sensibly without a guide", () => {
    expect(NextReply.next({ messages: [] }).text).toBe("Hello! How can I help you today?")
    expect(NextReply.next({ messages: [{ role: "system", content: "You are helpful." }] }).text).toBe(
      "Hello! How can I help you today?"
    )
    const { messages } = converse({}, ["I need a plumber", "yes", "What is your address?", "no"])
    expect(lines(messages)).toEqual([
      "A: Hello! How can I help you today?",
      "U: I need a plumber",
      "A: All right. Is there anything else I can help you with?",
      "U: yes",
      "A: All right. What else can I help you with?",
      "U: What is your address?",
      "A: I'm sorry, I don't have that information. Is there anything else I can help you with?",
      "U: no",
      "A: Thank you for your time. Goodbye!"
    ])
  })

  it("speaks the agent's language", () => {
    const polish = { ...emptyGuide, first_message: "Dzień dobry, tu przychodnia. W czym mogę pomóc?" }
    expect(
      NextReply.next({ guide: polish, messages: [agent("Dzień dobry"), user("Ile kosztuje wizyta?")] }).text
    ).toBe("Przepraszam, nie mam tej informacji. Czy mogę jeszcze w czymś pomóc?")
    expect(
      NextReply.next({ guide: polish, messages: [agent("Dzień dobry"), user("Dziękuję, do widzenia")] }).text
    ).toBe("Dziękuję za rozmowę. Do widzenia!")
  })

  it("gives up a field after asking twice", () => {
    const { messages } = converse({ guide: { ...clinic, plan: [] }, tools }, [
      "hmm",
      "hmm",
      "jan@example.com",
      "no idea",
      "dunno",
      "maybe",
      "ok"
    ])
    expect(lines(messages).filter((line) => line.startsWith("A:"))).toEqual([
      "A: Hello, this is Ann from Dental Care.",
      "A: All right. What is your email?",
      "A: All right. What is your email?",
      "A: Thank you. What is your party size?",
      "A: All right. What is your party size?",
      "A: All right. Could you confirm, yes or no: Wants the newsletter?",
      "A: All right. Could you confirm, yes or no: Wants the newsletter?",
      "A: Thank you for your time. Goodbye!"
    ])
  })

  it("answers the end function's result with the closing words, and any results it cannot place", () => {
    const ended = NextReply.next({
      guide: clinic,
      tools,
      messages: [
        {
          role: "assistant",
          content: "Bye",
          tool_calls: [{ id: "call_1", name: "end_call", arguments: "{}" }]
        },
        { role: "tool", tool_call_id: "call_1", content: "{}" }
      ]
    })
    expect(ended.text).toBe("Thank you for your time. Goodbye!")
    const unknown = NextReply.next({
      guide: clinic,
      messages: [{ role: "tool", tool_call_id: "x", content: shipped }]
    })
    expect(unknown.text).toBe(
      "Here is what I found: status: shipped, eta: 2026-03-01. Is Monday at 10 still fine for you?"
    )
  })
})
