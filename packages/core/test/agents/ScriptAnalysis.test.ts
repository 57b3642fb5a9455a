import { describe, expect, it } from "@effect/vitest"
import * as AgentFromScript from "../../src/agents/AgentFromScript.js"
import { analyze, guessLanguage } from "../../src/agents/ScriptAnalysis.js"

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
