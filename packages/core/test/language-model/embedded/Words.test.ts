import { describe, expect, it } from "@effect/vitest"
import { FastCheck } from "effect"
import * as Utterances from "../../../src/language-model/embedded/Utterances.js"
import * as Words from "../../../src/language-model/embedded/Words.js"

describe("Words", () => {
  it("folds case and diacritics without moving any character", () => {
    expect(Words.fold("Zażółć Gęślą JAŹŃ")).toBe("zazolc gesla jazn")
    expect(Words.fold("Łódź ß")).toBe("lodz s")
  })

  it.prop("folding keeps the length", [FastCheck.string({ unit: "grapheme", maxLength: 30 })], ([text]) => {
    expect(Words.fold(text).length).toBe(text.length)
  })

  it("stems English endings and compares content words", () => {
    expect(["hours", "opening", "booked", "deliveries", "boxes", "class", "bus"].map(Words.stem)).toEqual([
      "hour",
      "open",
      "book",
      "delivery",
      "box",
      "class",
      "bus"
    ])
    expect(Words.contentWords("What are your opening hours?")).toEqual(["open", "hour"])
  })

  it("matches phrases as whole words", () => {
    expect(Words.says("Well, THAT'S all, thanks", "that's all")).toBe(true)
    expect(Words.says("goodbyes", "goodbye")).toBe(false)
    expect(Words.says("Do widzenia!", "do widzenia")).toBe(true)
    expect(Words.says("anything", "")).toBe(false)
  })

  it("humanizes keys", () => {
    expect(["first_name", "firstName", "order-id", "E_MAIL"].map(Words.humanize)).toEqual([
      "first name",
      "first name",
      "order id",
      "e mail"
    ])
  })
})

describe("Utterances", () => {
  it("recognises questions by their mark or their first word", () => {
    expect(Utterances.isQuestion("When are you open")).toBe(true)
    expect(Utterances.isQuestion("you are open?")).toBe(true)
    expect(Utterances.isQuestion("Czy jest parking")).toBe(true)
    expect(Utterances.isQuestion("Ile to kosztuje")).toBe(true)
    expect(Utterances.isQuestion("I want a table")).toBe(false)
  })

  it("recognises goodbyes, busy and uninterested users, in English and Polish", () => {
    expect(
      ["Thanks, that's all", "bye!", "See you", "Dziękuję, do widzenia", "To wszystko"].every(
        Utterances.isGoodbye
      )
    ).toBe(true)
    expect(Utterances.isGoodbye("Is that all?")).toBe(false)
    expect(Utterances.isGoodbye("I'd like to buy a goodbye card")).toBe(true)
    expect(
      ["I'm busy right now", "Not a good time", "Nie mam czasu", "Jestem zajęta"].every(Utterances.isBusy)
    ).toBe(true)
    expect(
      ["No thanks", "I'm not interested", "Nie jestem zainteresowany", "Stop calling me"].every(
        Utterances.isNotInterested
      )
    ).toBe(true)
    expect(Utterances.isNotInterested("I am interested")).toBe(false)
  })

  it("recognises a no and thanks", () => {
    expect(["No", "nope, that's it", "Nie, dziękuję", "nothing"].every(Utterances.isNo)).toBe(true)
    expect(Utterances.isNo("Now I need help")).toBe(false)
    expect(Utterances.isThanks("Thank you very much")).toBe(true)
    expect(Utterances.isThanks("Thank you, but I also want to change my address")).toBe(false)
  })
})
