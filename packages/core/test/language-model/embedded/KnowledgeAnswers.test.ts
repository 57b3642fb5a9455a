import { describe, expect, it } from "@effect/vitest"
import { FastCheck } from "effect"
import * as KnowledgeAnswers from "../../../src/language-model/embedded/KnowledgeAnswers.js"
import { emptyGuide } from "../../../src/language-model/LanguageModel.js"

const faq = [
  { question: "What are your opening hours?", answer: "We are open 8:00–18:00 on weekdays." },
  { question: "Do you deliver on weekends?", answer: "Yes, on Saturdays." },
  { question: "Ile kosztuje dostawa?", answer: "Dostawa kosztuje 15 zł." }
]
const knowledge = [
  "Our clinic is at Main Street 5 in Kraków. Parking is free for patients behind the building. The entrance is from the yard.",
  "Payments: we accept cards and cash. Invoices are sent by e-mail within two days."
]

describe("KnowledgeAnswers", () => {
  it("answers from the FAQ entry a question shares most words with", () => {
    expect(KnowledgeAnswers.faqEntryFor("When are you open? What hours?", faq)?.answer).toMatch(/8:00/)
    expect(KnowledgeAnswers.faqEntryFor("what are the opening hours", faq)?.answer).toMatch(/8:00/)
    expect(KnowledgeAnswers.faqEntryFor("Do you deliver on Saturday on weekends", faq)?.answer).toBe(
      "Yes, on Saturdays."
    )
    expect(KnowledgeAnswers.faqEntryFor("ile kosztuje dostawa do Gdańska?", faq)?.answer).toBe(
      "Dostawa kosztuje 15 zł."
    )
  })

  it("does not answer from the FAQ on function words alone", () => {
    expect(KnowledgeAnswers.faqEntryFor("What are your prices?", faq)).toBeUndefined()
    expect(KnowledgeAnswers.faqEntryFor("?", faq)).toBeUndefined()
  })

  it("answers from the best knowledge chunk with its most relevant sentences, bounded", () => {
    expect(KnowledgeAnswers.knowledgeAnswerFor("Is parking free for patients?", knowledge)).toBe(
      "Parking is free for patients behind the building."
    )
    expect(KnowledgeAnswers.knowledgeAnswerFor("Do you accept cards for payments?", knowledge)).toBe(
      "Payments: we accept cards and cash."
    )
    expect(KnowledgeAnswers.knowledgeAnswerFor("Where is the zoo?", knowledge)).toBeUndefined()
    const long = `Parking ${"is very free and nice ".repeat(30)}for patients.`
    const answer = KnowledgeAnswers.knowledgeAnswerFor("parking patients", [long])!
    expect(answer.length).toBeLessThanOrEqual(KnowledgeAnswers.maxKnowledgeChars)
    expect(answer.endsWith("…")).toBe(true)
  })

  it("prefers the FAQ to the knowledge", () => {
    const guide = { ...emptyGuide, faq, knowledge: ["We are open around the clock, every hour of the day."] }
    expect(KnowledgeAnswers.answerFor("What are your opening hours?", guide)).toEqual({
      text: "We are open 8:00–18:00 on weekdays.",
      source: "faq"
    })
    expect(
      KnowledgeAnswers.answerFor("Where can patients park for free?", { ...emptyGuide, knowledge })
    ).toEqual({
      text: "Parking is free for patients behind the building.",
      source: "knowledge"
    })
    expect(KnowledgeAnswers.answerFor("What is the meaning of life?", guide)).toBeUndefined()
  })

  it.prop(
    "a knowledge answer is never longer than the bound",
    [
      FastCheck.string({ maxLength: 40 }),
      FastCheck.array(FastCheck.lorem({ mode: "sentences", maxCount: 12 }), { maxLength: 4 })
    ],
    ([question, chunks]) => {
      const answer = KnowledgeAnswers.knowledgeAnswerFor(question, chunks)
      if (answer !== undefined) expect(answer.length).toBeLessThanOrEqual(KnowledgeAnswers.maxKnowledgeChars)
    }
  )
})
