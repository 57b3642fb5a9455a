import { describe, expect, it } from "@effect/vitest"
import { FastCheck } from "effect"
import type { Turn } from "../../../src/language-model/embedded/FieldExtraction.js"
import * as FieldExtraction from "../../../src/language-model/embedded/FieldExtraction.js"
import type { Wanted } from "../../../src/language-model/embedded/FieldKinds.js"
import * as FieldKinds from "../../../src/language-model/embedded/FieldKinds.js"

const field = (name: string, type: Wanted["type"] = "string", description: string | null = null): Wanted => ({
  name,
  type,
  description
})
const user = (text: string): Turn => ({ role: "user", text })
const agent = (text: string): Turn => ({ role: "assistant", text })

const valueOf = (wanted: Wanted, turns: ReadonlyArray<Turn>, among: ReadonlyArray<Wanted> = [wanted]) =>
  FieldExtraction.valueOf(wanted, turns, among)

describe("FieldKinds", () => {
  it("reads a field's kind from its type, then the words of its name, then its description", () => {
    const kinds = [
      field("email"),
      field("customer_e-mail"),
      field("contactEmailAddress"),
      field("phone_number"),
      field("mobile"),
      field("telefon"),
      field("visit_date", "date"),
      field("birthday"),
      field("appointment_time"),
      field("first_name"),
      field("nazwisko"),
      field("company_name"),
      field("guests", "number"),
      field("phone_ok", "boolean"),
      field("contact", "string", "The caller's e-mail address"),
      field("notes")
    ].map(FieldKinds.kindOf)
    expect(kinds).toEqual([
      "email",
      "email",
      "email",
      "phone",
      "phone",
      "phone",
      "date",
      "date",
      "time",
      "name",
      "name",
      "text",
      "number",
      "boolean",
      "email",
      "text"
    ])
  })

  it("attributes an agent's question to the field it names best", () => {
    const fields = [
      field("first_name"),
      field("last_name"),
      field("customer_email"),
      field("dob", "date", "Date of birth")
    ]
    expect(FieldKinds.askedIn("Thank you. What is your last name?", fields)?.name).toBe("last_name")
    expect(FieldKinds.askedIn("And your first name?", fields)?.name).toBe("first_name")
    expect(FieldKinds.askedIn("Could I have your email, please?", fields)?.name).toBe("customer_email")
    expect(FieldKinds.askedIn("What is your date of birth?", fields)?.name).toBe("dob")
    expect(FieldKinds.askedIn("I have your email. What is your last name?", fields)?.name).toBe("last_name")
    expect(FieldKinds.askedIn("How can I help you today?", fields)).toBeUndefined()
  })
})

describe("FieldExtraction", () => {
  it("reads 'my <field> is …' statements, in English and Polish", () => {
    expect(valueOf(field("order_number"), [user("Hi, my order number is A-17, thanks.")])).toBe("A-17")
    expect(valueOf(field("city"), [user("My city is Kraków and my name is Ann")])).toBe("Kraków")
    expect(valueOf(field("name"), [user("My city is Kraków and my name is Ann")])).toBe("Ann")
    expect(valueOf(field("customer_city"), [user("our city is Gdańsk")])).toBe("Gdańsk")
    expect(valueOf(field("email"), [user("my email's jan@example.com")])).toBe("jan@example.com")
    expect(valueOf(field("miasto"), [user("Moje miasto to Wrocław.")])).toBe("Wrocław")
    expect(valueOf(field("name"), [user("Nazywam się Jan Kowalski")])).toBe("Jan Kowalski")
    expect(valueOf(field("first_name"), [user("My name is Jan Kowalski")])).toBe("Jan")
    expect(valueOf(field("last_name"), [user("My name is Jan Kowalski")])).toBe("Kowalski")
    expect(valueOf(field("age", "number"), [user("my age is forty two")])).toBe(42)
    expect(valueOf(field("newsletter", "boolean"), [user("newsletter: yes")])).toBe(true)
  })

  it("does not take another field's statement for this one", () => {
    expect(valueOf(field("name"), [user("The company name is Acme")])).toBeUndefined()
    expect(valueOf(field("name"), [user("What is your name?")])).toBeUndefined()
  })

  it("takes the answer to the agent's question for the field, read by the field's kind", () => {
    const fields = [
      field("full_name"),
      field("guests", "number"),
      field("visit_date", "date"),
      field("vip", "boolean")
    ]
    const turns = [
      agent("What is your full name?"),
      user("Sure, it's Anna Nowak."),
      agent("What is your guests?"),
      user("We'll be three"),
      agent("What is your visit date?"),
      user("The 14th of March, 2026 if possible"),
      agent("Could you confirm, yes or no: vip?"),
      user("Nope")
    ]
    expect(Object.fromEntries(FieldExtraction.valuesOf(fields, turns))).toEqual({
      full_name: "Anna Nowak",
      guests: 3,
      visit_date: "2026-03-14",
      vip: false
    })
  })

  it("does not take a question, a refusal or a bare yes for a text answer", () => {
    const name = field("name")
    expect(valueOf(name, [agent("What is your name?"), user("Why do you need it?")])).toBeUndefined()
    expect(valueOf(name, [agent("What is your name?"), user("I'd rather not say")])).toBeUndefined()
    expect(valueOf(name, [agent("What is your name?"), user("Yes.")])).toBeUndefined()
    expect(valueOf(name, [agent("What is your name?"), user("Nie wiem")])).toBeUndefined()
  })

  it("finds e-mails, phones, dates and times anywhere when the field is the only one of its kind", () => {
    const fields = [field("email"), field("phone"), field("when", "date"), field("slot_time")]
    const turns = [user("Reach me at ann@example.com or +48 600 700 800; 2026-05-01 at 9 am suits me.")]
    expect(Object.fromEntries(FieldExtraction.valuesOf(fields, turns))).toEqual({
      email: "ann@example.com",
      phone: "+48600700800",
      when: "2026-05-01",
      slot_time: "09:00"
    })
    // two date fields: an unattributed date belongs to neither
    const dates = [field("start_date", "date"), field("end_date", "date")]
    expect(FieldExtraction.valuesOf(dates, turns).size).toBe(0)
  })

  it("keeps a date without a year as said for a text field, and none for a date field", () => {
    const turns = [agent("What date suits you?"), user("March 14 would be great")]
    expect(valueOf(field("preferred_date"), turns)).toBe("March 14")
    expect(valueOf(field("preferred_date", "date"), turns)).toBeUndefined()
  })

  it("takes the latest value when the user corrects themselves", () => {
    const turns = [
      user("my email is old@example.com"),
      agent("Thank you."),
      user("sorry, my email is new@example.com")
    ]
    expect(valueOf(field("email"), turns)).toBe("new@example.com")
  })

  it("never reads the agent's own words as the user's", () => {
    expect(valueOf(field("email"), [agent("Write to us at help@example.com"), user("ok")])).toBeUndefined()
  })

  it("cleans text answers", () => {
    expect(FieldExtraction.cleanAnswer("Well, it's Main Street 5, thanks!")).toBe("Main Street 5")
    expect(FieldExtraction.cleanAnswer("Tak, to ul. Marszałkowska 1")).toBe("ul. Marszałkowska 1")
    expect(FieldExtraction.cleanAnswer("Oh, OK")).toBeUndefined()
    expect(FieldExtraction.cleanAnswer("word ".repeat(21))).toBeUndefined()
  })

  it.prop(
    "values are of the field's type, whatever the user says",
    [
      FastCheck.constantFrom<Wanted["type"]>("string", "number", "boolean", "date"),
      FastCheck.string({ maxLength: 12 }),
      FastCheck.array(FastCheck.tuple(FastCheck.boolean(), FastCheck.string({ maxLength: 40 })), {
        maxLength: 6
      })
    ],
    ([type, name, said]) => {
      const wanted = field(name, type)
      const turns = said.map(([isUser, text]) => (isUser ? user(text) : agent(text)))
      const value = valueOf(wanted, turns)
      if (value === undefined) return
      if (type === "number") expect(typeof value).toBe("number")
      if (type === "boolean") expect(typeof value).toBe("boolean")
      if (type === "date") expect(value).toMatch(/^\d{4}-\d{2}-\d{2}$/)
      if (type === "string")
        expect((value as string).length).toBeLessThanOrEqual(FieldExtraction.maxTextChars)
    }
  )
})
