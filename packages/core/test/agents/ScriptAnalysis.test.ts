import { describe, expect, it } from "@effect/vitest"
import { FastCheck, Schema } from "effect"
import * as AgentFromScript from "../../src/agents/AgentFromScript.js"
import { CallScriptRequest } from "../../src/agents/CallScript.js"
import { analyze, guessLanguage } from "../../src/agents/ScriptAnalysis.js"

const isRequest = Schema.is(Schema.typeSchema(CallScriptRequest))
const encode = Schema.encodeSync(CallScriptRequest)
const decode = Schema.decodeUnknownSync(CallScriptRequest)

const englishScript = `# Smile Clinic - check-up reminder
Name: Ada
Goal: Book a free check-up appointment
Direction: outbound
Persona: A warm, efficient receptionist at Smile Clinic
Tone: friendly but professional
Address: by first name
Website: https://smile.example

Greeting: "Hi {{first_name}}, this is Ada from Smile Clinic. Do you have a minute?"

Steps:
1. Confirm identity: Make sure you are speaking with {{first_name}}
2. Remind: It has been a year since the last check-up.
   Mention that the check-up is free.
3. Propose a date
   - Offer two slots
   - Accept any weekday
4. Close

Objections:
Objection: I'm too busy
Response: It only takes two minutes to book.
- "It's too expensive" -> "The check-up is covered by your plan."
Q: I already have a dentist
A: No problem, we can send you our offer by email.

Required phrases:
- "This call is recorded for quality purposes."
- Thank you for choosing Smile Clinic.

Collect: preferred date (date), email; insurance (yes/no)
Data:
- Phone number: a number to send the reminder SMS to

Avoid:
- Competitor prices
* Medical diagnoses

FAQ:
Q: Where are you?
A: Marszałkowska 1, Warsaw.

Q: Do you have parking?
A: Yes, free for patients.
- Are you open on Saturday? Yes, 9-14.

Facts:
- Opening hours: Mon-Fri 8-18
- Check-up price: free
- Parking = free

Notes:
The clinic opened in 2010.
Dr Nowak leads the team.
`

const polishScript = `Nazwa agenta: Ola
Cel: Umówić bezpłatną konsultację
Kierunek: przychodzące
Persona: Uprzejma recepcjonistka
Ton: formalny
Forma zwracania się: Pan/Pani

Powitanie:
„Dzień dobry, tu Ola z Kliniki Uśmiech.
W czym mogę pomóc?”

Kroki:
1) Przedstawienie: Przedstaw się i klinikę
2) Potrzeby: Zapytaj, z czym dzwoni klient
3) Termin

Zastrzeżenia:
"Nie mam czasu" -> "To zajmie tylko dwie minuty."
Obiekcja: Za drogo
Odpowiedź: Pierwsza konsultacja jest bezpłatna.

Obowiązkowe zwroty:
• Rozmowa jest nagrywana.

Zbierz:
- Imię i nazwisko
- Data wizyty (data): preferowany dzień

Unikaj: polityki; cen konkurencji

FAQ:
P: Gdzie jesteście?
O: Warszawa, Marszałkowska 1.

Fakty:
- Godziny otwarcia: pn-pt 8-18
Data: 12 maja
`

describe("ScriptAnalysis.analyze", () => {
  it("reads a realistic English script, every section", () => {
    expect(analyze(englishScript)).toEqual({
      agent: {
        agent_goal: "Book a free check-up appointment",
        call_direction: "outbound",
        greeting: "Hi {{first_name}}, this is Ada from Smile Clinic. Do you have a minute?",
        conversation_structure: [
          { title: "Confirm identity", description: "Make sure you are speaking with {{first_name}}" },
          {
            title: "Remind",
            description: "It has been a year since the last check-up. Mention that the check-up is free."
          },
          { title: "Propose a date", description: "Offer two slots; Accept any weekday" },
          "Close"
        ],
        objections: [
          { objection: "I'm too busy", response: "It only takes two minutes to book." },
          { objection: "It's too expensive", response: "The check-up is covered by your plan." },
          {
            objection: "I already have a dentist",
            response: "No problem, we can send you our offer by email."
          }
        ],
        required_phrases: [
          "This call is recorded for quality purposes.",
          "Thank you for choosing Smile Clinic."
        ],
        data_fields: [
          { name: "preferred date", type: "date" },
          "email",
          { name: "insurance", type: "boolean" },
          { name: "Phone number", description: "a number to send the reminder SMS to" }
        ],
        custom_data_fields: [],
        avoid_topics: ["Competitor prices", "Medical diagnoses"],
        persona: "A warm, efficient receptionist at Smile Clinic",
        formality: "friendly but professional",
        address_form: "by first name"
      },
      facts: { "Opening hours": "Mon-Fri 8-18", "Check-up price": "free", Parking: "free" },
      faq: [
        { question: "Where are you?", answer: "Marszałkowska 1, Warsaw." },
        { question: "Do you have parking?", answer: "Yes, free for patients." },
        { question: "Are you open on Saturday?", answer: "Yes, 9-14." }
      ],
      knowledge: "Smile Clinic - check-up reminder\nThe clinic opened in 2010.\nDr Nowak leads the team.",
      website: "https://smile.example",
      language: "en",
      agent_name: "Ada",
      generate_with_ai: false,
      enable_booking: false
    })
  })

  it("reads a realistic Polish script, every section", () => {
    expect(analyze(polishScript)).toEqual({
      agent: {
        agent_goal: "Umówić bezpłatną konsultację",
        call_direction: "inbound",
        greeting: "Dzień dobry, tu Ola z Kliniki Uśmiech. W czym mogę pomóc?",
        conversation_structure: [
          { title: "Przedstawienie", description: "Przedstaw się i klinikę" },
          { title: "Potrzeby", description: "Zapytaj, z czym dzwoni klient" },
          "Termin"
        ],
        objections: [
          { objection: "Nie mam czasu", response: "To zajmie tylko dwie minuty." },
          { objection: "Za drogo", response: "Pierwsza konsultacja jest bezpłatna." }
        ],
        required_phrases: ["Rozmowa jest nagrywana."],
        data_fields: [
          "Imię i nazwisko",
          { name: "Data wizyty", description: "preferowany dzień", type: "date" }
        ],
        custom_data_fields: [],
        avoid_topics: ["polityki", "cen konkurencji"],
        persona: "Uprzejma recepcjonistka",
        formality: "formalny",
        address_form: "Pan/Pani"
      },
      // in a Polish script `Data:` means "date", so it stays a fact instead of opening Collect
      facts: { "Godziny otwarcia": "pn-pt 8-18", Data: "12 maja" },
      faq: [{ question: "Gdzie jesteście?", answer: "Warszawa, Marszałkowska 1." }],
      knowledge: "",
      website: "",
      language: "pl",
      agent_name: "Ola",
      generate_with_ai: false,
      enable_booking: false
    })
  })

  it("composes an agent from the English preview", () => {
    const composed = AgentFromScript.compose(analyze(englishScript))
    expect(composed.name).toBe("Ada")
    expect(composed.workflow_definition.first_message).toBe(
      "Hi {{first_name}}, this is Ada from Smile Clinic. Do you have a minute?"
    )
    expect(composed.workflow_definition.nodes.filter((n) => n.type === "step")).toHaveLength(4)
    expect(composed.workflow_definition.system_prompt).toContain(
      '- "This call is recorded for quality purposes."'
    )
  })

  describe("minimal scripts", () => {
    it("takes a lone line as the greeting", () => {
      const result = analyze("  Hello, this is Ada from Smile Clinic.  ")
      expect(result.agent.greeting).toBe("Hello, this is Ada from Smile Clinic.")
      expect(result.knowledge).toBe("")
      expect(result.language).toBe("en")
    })

    it("takes the first unlabelled line as the greeting and keeps the rest as knowledge", () => {
      const result = analyze("Goal: sell\nHi, it's Ada.\nWe sell solar panels.")
      expect(result.agent.greeting).toBe("Hi, it's Ada.")
      expect(result.agent.agent_goal).toBe("sell")
      expect(result.knowledge).toBe("We sell solar panels.")
    })

    it("prefers a greeting label over earlier free lines, wherever it is", () => {
      const result = analyze("We sell solar panels.\nGreeting: Good morning!")
      expect(result.agent.greeting).toBe("Good morning!")
      expect(result.knowledge).toBe("We sell solar panels.")
    })

    it("falls back to a fixed greeting, localised and naming the agent when it can", () => {
      expect(analyze("").agent.greeting).toBe("Hello!")
      expect(analyze(" \n\t\n---\n").agent.greeting).toBe("Hello!")
      expect(analyze("Name: Ada").agent.greeting).toBe("Hello, this is Ada.")
      expect(analyze("", "pl").agent.greeting).toBe("Dzień dobry!")
      expect(analyze("Nazwa agenta: Ola", "pl").agent.greeting).toBe("Dzień dobry, tu Ola.")
    })

    it("reads numbered lines outside sections as steps, in order", () => {
      const result = analyze("Hi there!\n1. Ask about needs\n2) Offer: the premium plan\nStep 3: Close")
      expect(result.agent.greeting).toBe("Hi there!")
      expect(result.agent.conversation_structure).toEqual([
        "Ask about needs",
        { title: "Offer", description: "the premium plan" },
        "Close"
      ])
    })
  })

  describe("edge cases", () => {
    it("treats CRLF, CR and LF alike", () => {
      const lf = "Greeting: Hi\nSteps:\n- One\n- Two\n\nGoal: sell"
      expect(analyze(lf.replace(/\n/g, "\r\n"))).toEqual(analyze(lf))
      expect(analyze(lf.replace(/\n/g, "\r"))).toEqual(analyze(lf))
      expect(analyze(lf).agent.conversation_structure).toEqual(["One", "Two"])
      expect(analyze(lf).agent.agent_goal).toBe("sell")
    })

    it("counts tab indentation for continuation lines", () => {
      const result = analyze("Steps:\n1.\tIntro\n\tSay your name\n2.\tPitch")
      expect(result.agent.conversation_structure).toEqual([
        { title: "Intro", description: "Say your name" },
        "Pitch"
      ])
    })

    it("reads a script of only bullets as steps", () => {
      const result = analyze("- Introduce yourself\n* Ask about needs\n• Propose a meeting")
      expect(result.agent.conversation_structure).toEqual([
        "Introduce yourself",
        "Ask about needs",
        "Propose a meeting"
      ])
      expect(result.agent.greeting).toBe("Hello!")
    })

    it("ignores labels and headers without values, and empty items", () => {
      const result = analyze("Goal:\nPersona:\nSteps:\n- \n-\n1.\nAvoid:\n\nHello there")
      expect(result.agent.agent_goal).toBe("")
      expect(result.agent.persona).toBe("")
      expect(result.agent.conversation_structure).toEqual([])
      expect(result.agent.avoid_topics).toEqual([])
      expect(result.agent.greeting).toBe("Hello there")
    })

    it("takes the lines under an empty label as its value", () => {
      const result = analyze('Greeting:\n"Hi John: do you\nhave a minute?"\nGoal: sell')
      expect(result.agent.greeting).toBe("Hi John: do you have a minute?")
      expect(result.agent.agent_goal).toBe("sell")
    })

    it("appends repeated sections and keeps the first value of a repeated label", () => {
      const result = analyze(
        "Goal: first\nAvoid:\n- politics\n\nGoal: second\nAvoid:\n- religion\nFacts:\n- Price: 1\nFacts:\n- Price: 2"
      )
      expect(result.agent.avoid_topics).toEqual(["politics", "religion"])
      expect(result.agent.agent_goal).toBe("first")
      expect(result.facts).toEqual({ Price: "1" })
      expect(result.knowledge).toBe("Goal: second\nPrice: 2")
    })

    it("ends a section at a label after a blank line, not at a blank line before an item", () => {
      const result = analyze("Avoid:\n- politics\n\n- religion\n\nPersona: Ada\n- a step")
      expect(result.agent.avoid_topics).toEqual(["politics", "religion"])
      expect(result.agent.persona).toBe("Ada")
      expect(result.agent.conversation_structure).toEqual(["a step"])
    })

    it("ends a list section at prose after a blank line", () => {
      const result = analyze("Avoid:\n- politics\n\nThanks and goodbye.")
      expect(result.agent.avoid_topics).toEqual(["politics"])
      expect(result.agent.greeting).toBe("Thanks and goodbye.")
    })

    it("ends a list of phrases, fields or topics at an unbulleted header or label", () => {
      const result = analyze(
        "Required phrases:\n- This call is recorded.\nCollect: preferred time, email\nAvoid:\n- prices\nGoal: confirm"
      )
      expect(result.agent.required_phrases).toEqual(["This call is recorded."])
      expect(result.agent.data_fields).toEqual(["preferred time", "email"])
      expect(result.agent.avoid_topics).toEqual(["prices"])
      expect(result.agent.agent_goal).toBe("confirm")
    })

    it("keeps a `Header: value` line right inside a section as an item", () => {
      const result = analyze("Steps:\nGreeting: introduce yourself\nPlan: offer the plan")
      expect(result.agent.conversation_structure).toEqual([
        { title: "Greeting", description: "introduce yourself" },
        { title: "Plan", description: "offer the plan" }
      ])
      expect(result.agent.greeting).toBe("Hello!")
    })

    it("accepts Markdown headings and bold keys", () => {
      const result = analyze(
        "## Objections\n**Objection:** Too busy\n**Response**: Two minutes.\n\n**Goal:** sell"
      )
      expect(result.agent.objections).toEqual([{ objection: "Too busy", response: "Two minutes." }])
      expect(result.agent.agent_goal).toBe("sell")
    })

    it("strips surrounding quotes of every kind but keeps inner quotes", () => {
      const result = analyze(
        'Required phrases:\n- "Recorded call."\n- „Nagrywamy.”\n- “Smart.”\n- \'Single.\'\n- «Guillemets.»\n- "One" and "two"'
      )
      expect(result.agent.required_phrases).toEqual([
        "Recorded call.",
        "Nagrywamy.",
        "Smart.",
        "Single.",
        "Guillemets.",
        '"One" and "two"'
      ])
    })

    it("does not read URLs or times as labels", () => {
      const result = analyze("https://smile.example\nCall at 10:30 sharp")
      expect(result.agent.greeting).toBe("https://smile.example")
      expect(result.knowledge).toBe("Call at 10:30 sharp")
      expect(result.facts).toEqual({})
    })

    it("reads unknown short top-level keys as facts, long ones as free text", () => {
      const result = analyze("Company: Smile Clinic\nHi John, this is Ada: do you have a minute?")
      expect(result.facts).toEqual({ Company: "Smile Clinic" })
      expect(result.agent.greeting).toBe("Hi John, this is Ada: do you have a minute?")
    })

    it("keeps a __proto__ fact, which a decoded Record would drop, as knowledge", () => {
      const result = analyze("Facts:\n- __proto__: x\n- constructor: y")
      expect(Object.keys(result.facts)).toEqual(["constructor"])
      expect(result.knowledge).toBe("__proto__: x")
      expect(decode(encode(result))).toEqual(result)
    })

    it("reads a postal address as a fact, a form of address as the address form", () => {
      expect(analyze("Address: 1 Main Street").facts).toEqual({ Address: "1 Main Street" })
      expect(analyze("Address: 1 Main Street").agent.address_form).toBe("")
      expect(analyze("Address: Mr/Mrs and surname").agent.address_form).toBe("Mr/Mrs and surname")
    })

    it("reads the call direction in both languages", () => {
      expect(analyze("Direction: Inbound").agent.call_direction).toBe("inbound")
      expect(analyze("Direction: incoming calls").agent.call_direction).toBe("inbound")
      expect(analyze("Kierunek: połączenia przychodzące").agent.call_direction).toBe("inbound")
      expect(analyze("Kierunek: wychodzące").agent.call_direction).toBe("outbound")
      const unknown = analyze("Direction: sideways")
      expect(unknown.agent.call_direction).toBe("outbound")
      expect(unknown.knowledge).toBe("Direction: sideways")
    })

    it("reads pairs in every form", () => {
      const result = analyze(
        [
          "Objections:",
          '- "Not interested" → "May I ask one question?"',
          "Too expensive: We offer instalments.",
          "Customer: I'm busy",
          "Agent: It takes two minutes.",
          '- "Send me an email"',
          "  - Sure, what address?",
          "- Call me later",
          "",
          "FAQ:",
          "Question: Where?",
          "Answer: Warsaw",
          "  and Kraków.",
          "Do you work on Sundays?",
          "No.",
          "Parking? Yes => free"
        ].join("\n")
      )
      expect(result.agent.objections).toEqual([
        { objection: "Not interested", response: "May I ask one question?" },
        { objection: "Too expensive", response: "We offer instalments." },
        { objection: "I'm busy", response: "It takes two minutes." },
        { objection: "Send me an email", response: "Sure, what address?" },
        { objection: "Call me later", response: "" }
      ])
      expect(result.faq).toEqual([
        { question: "Where?", answer: "Warsaw and Kraków." },
        { question: "Do you work on Sundays?", answer: "No." },
        { question: "Parking? Yes", answer: "free" }
      ])
    })

    it("opens Objections or FAQ from a top-level pair line; keeps an orphan answer as knowledge", () => {
      const result = analyze(
        "Hi!\nObjection: Too busy\nResponse: Two minutes.\n\nGoal: sell\nQ: Price?\nA: Free.\n\nA: also free"
      )
      expect(result.agent.objections).toEqual([{ objection: "Too busy", response: "Two minutes." }])
      expect(result.faq).toEqual([{ question: "Price?", answer: "Free. also free" }])
      expect(result.agent.agent_goal).toBe("sell")
      expect(result.knowledge).toBe("")
      const orphan = analyze("Hi!\nAnswer: orphan")
      expect(orphan.faq).toEqual([])
      expect(orphan.knowledge).toBe("Answer: orphan")
    })

    it("reads data fields with types and custom fields", () => {
      const result = analyze(
        "Collect:\n- Age (number)\n- Newsletter (tak/nie): consent\n- Note (free form)\nCustom fields:\n- VIP (boolean)"
      )
      expect(result.agent.data_fields).toEqual([
        { name: "Age", type: "number" },
        { name: "Newsletter", description: "consent", type: "boolean" },
        "Note (free form)"
      ])
      expect(result.agent.custom_data_fields).toEqual([{ name: "VIP", type: "boolean" }])
    })

    it("stays linear on long pathological lines", () => {
      const n = 100_000
      for (const source of [
        `a${" ".repeat(n)}b`,
        `Collect:\n- ${"(a) ".repeat(n / 4)}x`,
        `Objections:\n${"a -> ".repeat(n / 5)}`,
        `Step${" ".repeat(n)}x`,
        "- a\n  b\n".repeat(n / 8)
      ]) {
        expect(isRequest(analyze(source))).toBe(true)
      }
    })

    it("cuts the agent name to 255 characters", () => {
      const result = analyze(`Name: ${"a".repeat(300)}`)
      expect(result.agent_name).toBe("a".repeat(255))
      expect(isRequest(result)).toBe(true)
    })
  })

  describe("language", () => {
    it("uses a valid argument, normalised", () => {
      expect(analyze("Dzień dobry", "en").language).toBe("en")
      expect(analyze("Hello", "PL").language).toBe("pl")
      expect(analyze("Hello", "pl_PL").language).toBe("pl-PL")
      expect(analyze("Hello", "Polish").language).toBe("pl")
      expect(analyze("Hello", "not a language").language).toBe("en")
    })

    it("uses a Language label when no argument is given", () => {
      expect(analyze("Language: polski\nHello").language).toBe("pl")
      expect(analyze("Language: de-AT\nHello").language).toBe("de-AT")
      expect(analyze("Language: de-AT\nHello", "en").language).toBe("en")
    })

    it("guesses Polish from Polish letters or words outnumbering English words", () => {
      expect(guessLanguage("Dzień dobry")).toBe("pl")
      expect(guessLanguage("Dzien dobry, czy rozmawiam z panem?")).toBe("pl")
      expect(guessLanguage("Zażółć")).toBe("pl")
      expect(guessLanguage("Hello, we are at Marszałkowska 1 in Warsaw")).toBe("en")
      expect(guessLanguage("Hello, can I speak with Jan?")).toBe("en")
      expect(guessLanguage("")).toBe("en")
      expect(analyze(polishScript).language).toBe("pl")
      expect(analyze(englishScript).language).toBe("en")
    })
  })
})

// Lines as people write scripts: labels, headers, list markers, pairs, quotes and prose, in any order.
const scriptLine = FastCheck.tuple(
  FastCheck.constantFrom(
    "",
    "  ",
    "\t",
    "- ",
    "* ",
    "• ",
    "1. ",
    "2) ",
    "Step 3: ",
    "Goal: ",
    "Cel: ",
    "Greeting: ",
    "Powitanie:",
    "Name: ",
    "Direction: ",
    "Language: ",
    "Address: ",
    "Steps:",
    "Kroki:",
    "Objections:",
    "Zastrzeżenia: ",
    "Must say: ",
    "Collect: ",
    "Dane:",
    "Avoid: ",
    "FAQ:",
    "Facts:",
    "Notes:",
    "Q: ",
    "A: ",
    "Objection: ",
    "Response: ",
    "## ",
    "**",
    '"',
    "„",
    "__proto__: "
  ),
  FastCheck.oneof(
    FastCheck.lorem({ maxCount: 8 }),
    FastCheck.constantFrom("", ":", "?", "->", " -> ", '"', "”", "(date)", "(", "---", "inbound", "pl_PL"),
    FastCheck.string({ maxLength: 12 })
  ),
  FastCheck.constantFrom("", ":", "?", '"', " -> x", ": y", "  ")
).map(([prefix, body, suffix]) => `${prefix}${body}${suffix}`)

const script = FastCheck.tuple(
  FastCheck.array(scriptLine, { maxLength: 30 }),
  FastCheck.constantFrom("\n", "\r\n", "\r")
).map(([lines, newline]) => lines.join(newline))

const anyLanguage = FastCheck.option(
  FastCheck.oneof(
    FastCheck.constantFrom("en", "pl", "PL", "pl_PL", "de-AT", "Polish", "", "x"),
    FastCheck.string({ maxLength: 8 })
  ),
  { nil: undefined }
)

const checkInvariants = (source: string, language: string | undefined) => {
  const result = analyze(source, language)
  expect(isRequest(result)).toBe(true)
  expect(result.agent.greeting).not.toBe("")
  expect(result.agent.greeting).toBe(result.agent.greeting.trim())
  expect(decode(encode(result))).toEqual(result)
  expect(() => AgentFromScript.compose(result)).not.toThrow()
  expect(analyze(source, language)).toEqual(result)
}

describe("ScriptAnalysis.analyze properties", () => {
  it.prop(
    "any string gives a valid, round-tripping, composable preview",
    [FastCheck.string({ unit: "binary", maxLength: 300 }), anyLanguage],
    ([source, language]) => checkInvariants(source, language)
  )

  it.prop("any printable string too", [FastCheck.string({ maxLength: 300 })], ([source]) =>
    checkInvariants(source, undefined)
  )

  it.prop(
    "any script-like text gives a valid, round-tripping, composable preview",
    [script, anyLanguage],
    ([source, language]) => checkInvariants(source, language),
    { fastCheck: { numRuns: 500 } }
  )

  it.prop(
    "lorem prose: the first line is the greeting, the others are knowledge",
    [FastCheck.array(FastCheck.lorem({ mode: "sentences", maxCount: 3 }), { maxLength: 12 })],
    ([lines]) => {
      const result = analyze(lines.join("\n"))
      const kept = lines.map((line) => line.trim()).filter((line) => line !== "")
      expect(result.agent.greeting).toBe(kept[0] ?? "Hello!")
      expect(result.knowledge).toBe(kept.slice(1).join("\n"))
    }
  )

  it.prop(
    "numbered lines become the steps, in order",
    [FastCheck.array(FastCheck.lorem({ maxCount: 4 }), { minLength: 1, maxLength: 10 })],
    ([items]) => {
      const result = analyze(items.map((item, i) => `${i + 1}. ${item}`).join("\n"))
      expect(result.agent.conversation_structure).toEqual(
        items.map((item) => item.trim()).filter((item) => item !== "")
      )
    }
  )

  it.prop(
    "a valid language argument is kept as given",
    [FastCheck.constantFrom("en", "pl", "de", "pl-PL", "en-GB", "fra"), script],
    ([language, source]) => {
      expect(analyze(source, language).language).toBe(language)
    }
  )
})
