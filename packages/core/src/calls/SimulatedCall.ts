import type { GatheredField, PlanStep } from "../agents/Agent.js"
import { planOf } from "../agents/Agent.js"
import type { ToolParameter } from "../tools/ToolDefinition.js"
import type { Role } from "../transcripts/Transcript.js"
import type { CallEvent } from "./CallEvents.js"
import type { SimulatedTool } from "./SimulatedToolCalls.js"
import { triggered } from "./SimulatedToolCalls.js"
import type { OutboundCall } from "./Telephony.js"

/**
 * The script of a simulated call: what happens when, as the built-in voice runtime plays it. A call rings
 * for a quarter of its talk time, is answered, talks (the agent's first message, the known context read
 * back, the plan's steps, a question per gathered field), then gathers its data, sends one SMS, logs one
 * line, hands over a recording of its talk time and ends `completed`. When the agent has HTTP API tools
 * with trigger phrases, the caller asks for each (`SimulatedToolCalls`) and the tool is called. Test numbers end otherwise, with no
 * conversation, transcript or recording, after 0 billed seconds.
 */

/** The outcome of a simulated call. */
export type SimulatedOutcome = "completed" | "busy" | "no_answer" | "failed"

/** Numbers whose simulated call does not complete (E.164). */
export const testNumbers: Readonly<Record<string, Exclude<SimulatedOutcome, "completed">>> = {
  "+48500000486": "busy",
  "+48500000487": "no_answer",
  "+48500000488": "failed"
}

/** How a simulated call to a number (E.164) ends. */
export const outcomeFor = (phoneNumber: string): SimulatedOutcome =>
  Object.hasOwn(testNumbers, phoneNumber) ? (testNumbers[phoneNumber] ?? "completed") : "completed"

/** An event of the script: as `CallEvent`, but a fragment is stamped and a recording made when played. */
export type ScriptedEvent =
  | Exclude<CallEvent, { readonly type: "fragment" } | { readonly type: "recording" }>
  | { readonly type: "fragment"; readonly role: Role; readonly text: string }
  | { readonly type: "recording"; readonly seconds: number }
  /** The agent calls one of its tools, with the arguments its model chose. */
  | {
      readonly type: "tool_call"
      readonly tool_uuid: string
      readonly arguments: Readonly<Record<string, unknown>>
    }

/** An event and when it happens, in milliseconds after the call was placed. */
export interface ScriptedStep {
  readonly at_ms: number
  readonly event: ScriptedEvent
}

/** What a simulated call is made of. */
export interface SimulatedCallInput {
  /** The called number, E.164. */
  readonly phone_number: string
  readonly agent_name: string
  /** The first message with `{{initial_context.*}}` already filled in. */
  readonly first_message: string
  readonly plan: ReadonlyArray<PlanStep>
  readonly initial_context: Readonly<Record<string, unknown>>
  readonly gathered_fields: ReadonlyArray<GatheredField>
  /** The tools the caller asks for (see `SimulatedToolCalls.usableTools`); none by default. */
  readonly tools?: ReadonlyArray<SimulatedTool>
  /** The talk time of a completed call, in seconds (fractions allowed). */
  readonly call_seconds: number
  /** When the call is placed: dates the caller gives are a week after it. */
  readonly now: Date
}

/** The input of a call handed to the runtime: the plan is the definition's step nodes, in graph order. */
export const inputOf = (
  call: OutboundCall,
  callSeconds: number,
  now: Date,
  tools: ReadonlyArray<SimulatedTool> = []
): SimulatedCallInput => {
  const workflow = call.definition.workflow_definition
  return {
    phone_number: call.run.phone_number ?? "",
    agent_name: call.agent.name,
    first_message: call.first_message,
    plan: planOf(workflow),
    initial_context: call.run.initial_context,
    gathered_fields: workflow.gathered_fields,
    tools,
    // a call that outlived its agent's maximum would lose its channel before it ends
    call_seconds: Math.min(callSeconds, call.agent.workflow_configurations.max_call_duration_seconds),
    now
  }
}

/** `first_name` → `first name`. */
const humanize = (key: string): string => key.replace(/[_-]+/g, " ").trim()

/** How a value reads aloud: scalars only; objects and empty values are not read back. */
const spoken = (value: unknown): string | undefined => {
  switch (typeof value) {
    case "string":
      return value.trim() === "" ? undefined : value
    case "number":
    case "boolean":
      return String(value)
    default:
      return undefined
  }
}

/** The date a week after `now`, as YYYY-MM-DD (UTC). */
const aWeekLater = (now: Date): string =>
  new Date(now.getTime() + 7 * 24 * 60 * 60 * 1000).toISOString().slice(0, 10)

/**
 * A plausible value the caller gives for a field: what `initial_context` already holds under its name
 * when the type fits, otherwise a value of the field's type guessed from its name.
 */
export const plausibleValue = (
  field: GatheredField,
  context: Readonly<Record<string, unknown>>,
  phoneNumber: string,
  now: Date
): string | number | boolean => {
  const known = Object.hasOwn(context, field.name) ? context[field.name] : undefined
  const name = field.name.toLowerCase()
  switch (field.type) {
    case "boolean":
      return typeof known === "boolean" ? known : true
    case "number":
      if (typeof known === "number" && Number.isFinite(known)) return known
      if (name.split(/[^a-z0-9]+/).includes("age")) return 42
      return /count|quantity|people|guests|seats|persons|number/.test(name) ? 2 : 1
    case "date":
      return typeof known === "string" && /^\d{4}-\d{2}-\d{2}$/.test(known) ? known : aWeekLater(now)
    case "string":
      if (typeof known === "string" && known.trim() !== "") return known
      if (/e-?mail/.test(name)) return "jan.kowalski@example.com"
      if (/phone|tel|mobile/.test(name)) return phoneNumber
      if (/name/.test(name)) return "Jan Kowalski"
      if (/address|street/.test(name)) return "ul. Marszałkowska 1, 00-001 Warszawa"
      if (/city|town/.test(name)) return "Warszawa"
      if (/time|hour/.test(name)) return "10:00"
      if (/date|day/.test(name)) return aWeekLater(now)
      return "confirmed"
  }
}

/** The arguments the simulated model passes to a tool: a plausible value of each parameter's type. */
export const argumentsFor = (
  parameters: ReadonlyArray<ToolParameter>,
  context: Readonly<Record<string, unknown>>,
  phoneNumber: string,
  now: Date
): Record<string, unknown> =>
  Object.fromEntries(
    parameters.map((parameter) => [
      parameter.name,
      plausibleValue(
        { name: parameter.name, description: parameter.description, type: parameter.type },
        context,
        phoneNumber,
        now
      )
    ])
  )

/** The conversation of a completed call, in order: who says what. */
export const conversation = (
  input: SimulatedCallInput,
  gathered: Readonly<Record<string, unknown>>
): ReadonlyArray<{ readonly role: Role; readonly text: string }> => {
  const lines: Array<{ role: Role; text: string }> = []
  const say = (role: Role, text: string) => void lines.push({ role, text })
  if (input.first_message.trim() !== "") say("assistant", input.first_message)
  say("assistant", "Do you have a moment?")
  say("user", "Yes, go ahead.")
  const facts = Object.entries(input.initial_context).flatMap(([key, value]) => {
    const text = spoken(value)
    return text === undefined ? [] : [`${humanize(key)}: ${text}`]
  })
  if (facts.length > 0) {
    say("assistant", `Let me confirm what I have. ${facts.slice(0, 10).join("; ")}.`)
    say("user", "That's right.")
  }
  for (const step of input.plan) {
    say("assistant", step.description === null ? step.title : `${step.title}. ${step.description}`)
    say("user", "Okay.")
  }
  for (const tool of input.tools ?? []) {
    say("user", tool.trigger_phrases[0]!)
    say("assistant", tool.wait_message ?? "One moment, please.")
  }
  for (const field of input.gathered_fields) {
    say("assistant", `What is your ${humanize(field.name)}?`)
    say("user", String(gathered[field.name]))
  }
  say("assistant", "Thank you for your time. Goodbye!")
  say("user", "Goodbye.")
  return lines
}

/**
 * The script of a simulated call, in time order. A completed call rings from 0, is answered after a
 * quarter of its talk time, spreads its fragments evenly over the talk time, and at its end reports the
 * gathered data, one SMS, one log line, the recording and `ended`. A busy line ends after the ring time
 * without ringing, an unanswered call rings as long as a completed one would, a failed call ends after the
 * ring time; each of them logs why.
 */
export const script = (input: SimulatedCallInput): ReadonlyArray<ScriptedStep> => {
  const talkMs = Math.max(1, Math.round(input.call_seconds * 1000))
  const ringMs = Math.round(talkMs / 4)
  const endMs = ringMs + talkMs
  const outcome = outcomeFor(input.phone_number)
  const at = (at_ms: number, event: ScriptedEvent): ScriptedStep => ({ at_ms, event })
  const testNumber = (level: "info" | "error", why: string) =>
    at(outcome === "no_answer" ? endMs : ringMs, {
      type: "log",
      level,
      message: `Simulated call to test number ${input.phone_number}: ${why}`
    })
  switch (outcome) {
    case "busy":
      return [
        testNumber("info", "the line is busy"),
        at(ringMs, { type: "ended", status: "busy", duration_seconds: 0 })
      ]
    case "no_answer":
      return [
        at(0, { type: "ringing" }),
        testNumber("info", "nobody answered"),
        at(endMs, { type: "ended", status: "no_answer", duration_seconds: 0 })
      ]
    case "failed":
      return [
        testNumber("error", "the call could not be connected"),
        at(ringMs, { type: "ended", status: "failed", duration_seconds: 0 })
      ]
    case "completed": {
      const gathered = Object.fromEntries(
        input.gathered_fields.map((field) => [
          field.name,
          plausibleValue(field, input.initial_context, input.phone_number, input.now)
        ])
      )
      const lines = conversation(input, gathered)
      const lineAt = (i: number) => ringMs + Math.floor((talkMs * i) / lines.length)
      // A tool a caller line asks for is called once the agent has answered it (its wait message).
      const calls = triggered(
        lines.map((line) => (line.role === "user" ? line.text : "")),
        input.tools ?? []
      )
      const toolCallsAt = (atMs: number, tools: ReadonlyArray<SimulatedTool>): ReadonlyArray<ScriptedStep> =>
        tools.map((tool) =>
          at(atMs, {
            type: "tool_call",
            tool_uuid: tool.tool_uuid,
            arguments: argumentsFor(tool.parameters, input.initial_context, input.phone_number, input.now)
          })
        )
      const toolCallsAfter = (i: number) => toolCallsAt(lineAt(i), i === 0 ? [] : (calls[i - 1] ?? []))
      return [
        at(0, { type: "ringing" }),
        at(ringMs, { type: "answered" }),
        ...lines.flatMap((line, i) => [at(lineAt(i), { type: "fragment", ...line }), ...toolCallsAfter(i)]),
        // a tool asked for by the last line is called after it
        ...toolCallsAt(endMs, calls[lines.length - 1] ?? []),
        ...(input.gathered_fields.length === 0 ? [] : [at(endMs, { type: "gathered", values: gathered })]),
        at(endMs, {
          type: "sms",
          to: input.phone_number,
          text: `Thank you for talking with ${input.agent_name}. This message comes from a simulated call.`
        }),
        at(endMs, {
          type: "log",
          level: "info",
          message: `Simulated call completed: ${lines.length} transcript fragments, ${input.gathered_fields.length} gathered fields`
        }),
        at(endMs, { type: "recording", seconds: input.call_seconds }),
        at(endMs, { type: "ended", status: "completed", duration_seconds: input.call_seconds })
      ]
    }
  }
}
