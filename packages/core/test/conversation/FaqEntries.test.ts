import { describe, expect, it } from "@effect/vitest"
import { FastCheck } from "effect"
import * as FaqEntries from "../../src/conversation/FaqEntries.js"

/** Text of a question or an answer: one line, not blank, its ends trimmed. */
const entryText = FastCheck.string({ minLength: 1, maxLength: 40 })
  .map((text) => text.replace(/[\r\n]/g, " ").trim())
  .filter((text) => text !== "")
/** A line that is neither a question nor an answer. */
const otherLine = FastCheck.stringMatching(/^[x-z][a-z ,.]{0,30}$/)

describe("FaqEntries.parse", () => {
  it("reads Q:/A: pairs and Question:/Answer: pairs, in order, trimmed", () => {
    const text = [
      "You are the shop's agent. FAQ:",
      "Q: When are you open?",
      "A:   Monday to Friday, 9 to 17.  ",
      "Question: Do you deliver?",
      "Answer: Yes, in Warsaw.",
      "q) Can I pay by card?",
      "a. Yes."
    ].join("\n")
    expect(FaqEntries.parse(text)).toEqual([
      { question: "When are you open?", answer: "Monday to Friday, 9 to 17." },
      { question: "Do you deliver?", answer: "Yes, in Warsaw." },
      { question: "Can I pay by card?", answer: "Yes." }
    ])
  })

  it("reads pairs written as bullets and lines ending in CRLF", () => {
    const text =
      "- Q: Is parking free?\r\n- A: For customers.\r\n* QUESTION: Pets?\r\n* ANSWER: Dogs welcome.\r\n"
    expect(FaqEntries.parse(text)).toEqual([
      { question: "Is parking free?", answer: "For customers." },
      { question: "Pets?", answer: "Dogs welcome." }
    ])
  })

  it("ignores a question without its answer on the next line, and an answer without a question", () => {
    const text = [
      "A: an answer to nothing",
      "Q: Unanswered?",
      "",
      "A: too late",
      "Q: First?",
      "Q: Second?",
      "A: the second's answer",
      "Q: Last without answer?"
    ].join("\n")
    expect(FaqEntries.parse(text)).toEqual([{ question: "Second?", answer: "the second's answer" }])
  })

  it("ignores a question or an answer that says nothing", () => {
    expect(FaqEntries.parse("Q:   \nA: Something")).toEqual([])
    expect(FaqEntries.parse("Q: Something?\nA:  \t ")).toEqual([])
    expect(FaqEntries.parse("Q:\nA:")).toEqual([])
  })

  it("finds nothing in text without pairs", () => {
    expect(FaqEntries.parse("")).toEqual([])
    expect(FaqEntries.parse("Quality: high\nAnswers come later.")).toEqual([])
  })

  it.prop(
    "pairs written among other lines, with any line endings, are read back in order",
    [
      FastCheck.array(
        FastCheck.record({
          before: FastCheck.array(otherLine, { maxLength: 3 }),
          question: entryText,
          answer: entryText,
          style: FastCheck.constantFrom(["Q: ", "A: "], ["Question: ", "Answer: "], ["- q) ", "- a) "])
        }),
        { maxLength: 8 }
      ),
      FastCheck.constantFrom("\n", "\r\n")
    ],
    ([pairs, newline]) => {
      const text = pairs
        .flatMap(({ answer, before, question, style }) => [...before, style[0] + question, style[1] + answer])
        .join(newline)
      expect(FaqEntries.parse(text)).toEqual(pairs.map(({ answer, question }) => ({ question, answer })))
    }
  )

  it.prop(
    "whatever the text, every entry read has a question and an answer",
    [
      FastCheck.array(
        FastCheck.oneof(
          FastCheck.string(),
          FastCheck.constantFrom("Q:", "A:", "Q:  ", "A: \t", "- Question: x ", "answer) y", " ", "\r")
        ),
        { maxLength: 12 }
      ).map((lines) => lines.join("\n"))
    ],
    ([text]) => {
      for (const entry of FaqEntries.parse(text)) {
        expect(entry.question.trim()).not.toBe("")
        expect(entry.answer.trim()).not.toBe("")
        expect(entry.question).toBe(entry.question.trim())
        expect(entry.answer).toBe(entry.answer.trim())
      }
    }
  )
})
