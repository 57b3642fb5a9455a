import { matches } from "../../calls/SimulatedToolCalls.js"
import type { ConversationGuide, FunctionTool, ModelRequest, ToolCall } from "../LanguageModel.js"
import { emptyGuide } from "../LanguageModel.js"
import * as CallArguments from "./CallArguments.js"
import type { Parameter } from "./CallArguments.js"
import { walkOf } from "./ConversationWalk.js"
import type { FieldValue, Turn } from "./FieldExtraction.js"
import { valuesOf } from "./FieldExtraction.js"
import { labelOf, questionOf } from "./FieldKinds.js"
import type { History } from "./History.js"
import { hasCalled, lastUserTurn, newCallIds, previousAssistantTurn, read } from "./History.js"
import { answerFor } from "./KnowledgeAnswers.js"
import type { Phrases } from "./Phrasebook.js"
import { languageOf, phrasesOf } from "./Phrasebook.js"
import { sentenceFor } from "./ToolResults.js"
import { isBusy, isGoodbye, isNo, isNotInterested, isQuestion, isThanks } from "./Utterances.js"
import { humanize } from "./Words.js"

/**
 * The embedded model's next assistant message: a walk of the agent's plan, by these rules, first match
 * wins (see docs/language-models.md):
 *
 * 1. Function results to answer: one sentence per result (`ToolResults`), then the next plan item, or
 *    "anything else?". A result of the end function gets the closing words.
 * 2. Nothing said yet: the first message (a neutral greeting when there is none).
 * 3. The user says goodbye, or is busy or not interested: the closing words, with a call of the end
 *    function when it is offered.
 * 4. The user's turn holds a trigger phrase of an offered function not called yet (or answers the model's
 *    question for such a function's argument): the calls, their arguments from the conversation; when a
 *    required argument is missing, the question for it instead (asked once, then given up).
 * 5. A question that did not give a data field: the FAQ's or the knowledge's answer, else the fallback,
 *    then the next plan item or "anything else?".
 * 6. "No" (or thanks) to "anything else?": the closing words and the end function.
 * 7. Otherwise an acknowledgement and the next plan item (steps first, then fields); when the plan and
 *    fields are done, the closing words and the end function; an agent with neither asks "anything else?".
 *
 * When the user spoke first, the first message opens the reply. Deterministic: the same request gives
 * the same reply.
 */

/** The most functions called in one reply (the conversation's limit per turn). */
export const maxCallsPerReply = 5

/** The next message's text and calls. */
export interface Reply {
  readonly text: string
  readonly tool_calls: ReadonlyArray<ToolCall>
}

const join = (...parts: ReadonlyArray<string | null | undefined>): string =>
  parts
    .filter((part): part is string => part !== null && part !== undefined && part.trim() !== "")
    .map((part) => part.trim())
    .join(" ")

/** What a function does, in words: its name's. */
const actionOf = (name: string): string => humanize(name)

const triggersOf = (guide: ConversationGuide, name: string): ReadonlyArray<string> =>
  Object.hasOwn(guide.triggers, name) ? (guide.triggers[name] ?? []) : []

interface Context {
  readonly guide: ConversationGuide
  readonly history: History
  readonly phrases: Phrases
  readonly offered: ReadonlyArray<FunctionTool>
}

const callsOf = (
  context: Context,
  wanted: ReadonlyArray<{ fn: FunctionTool; args: Readonly<Record<string, FieldValue>> }>
) => {
  const ids = newCallIds(context.history, wanted.length)
  return wanted.map(({ fn, args }, i): ToolCall => ({
    id: ids[i]!,
    name: fn.name,
    arguments: JSON.stringify(args)
  }))
}

/** The closing words, with the end function's call when it is offered. */
const ending = (context: Context, text: string): Reply => {
  const { guide, offered, history } = context
  const fn =
    guide.end_function === null
      ? undefined
      : offered.find((candidate) => candidate.name === guide.end_function)
  if (fn === undefined) return { text, tool_calls: [] }
  const built = CallArguments.build(fn, {
    turns: history.turns,
    asking: undefined,
    triggerPhrases: [],
    // the conversation ends either way: a required argument nothing gave takes the closing words, 0 or false
    fallback: (parameter: Parameter) =>
      parameter.options !== null
        ? parameter.options[0]
        : parameter.type === "number"
          ? 0
          : parameter.type === "boolean"
            ? false
            : text
  })
  const args = built._tag === "Ready" ? built.arguments : {}
  return { text, tool_calls: callsOf(context, [{ fn, args }]) }
}

type FunctionStep =
  | { readonly _tag: "Call"; readonly calls: ReadonlyArray<ToolCall> }
  | { readonly _tag: "Ask"; readonly text: string }
  | { readonly _tag: "GiveUp"; readonly text: string }
  | { readonly _tag: "None" }

/** The functions the user's turn asks for, or the model's question for an argument one of them lacks. */
const functionStep = (context: Context, user: string): FunctionStep => {
  const { guide, history, phrases, offered } = context
  const previous = previousAssistantTurn(history)
  const triggerTurn = history.turns.at(-3)
  const ready: Array<{ fn: FunctionTool; args: Readonly<Record<string, FieldValue>> }> = []
  let question: FunctionStep | undefined
  for (const fn of offered) {
    if (fn.name === guide.end_function || hasCalled(history, fn.name)) continue
    const triggerPhrases = triggersOf(guide, fn.name)
    if (triggerPhrases.length === 0) continue
    const triggered = triggerPhrases.some((phrase) => matches(user, phrase))
    // the model asked for an argument of this function last time: the user's answer may complete it
    const retried =
      !triggered &&
      previous !== undefined &&
      triggerTurn?.role === "user" &&
      previous.includes(phrases.needPrefix(actionOf(fn.name)))
    if (!triggered && !retried) continue
    const asking = triggered ? user : triggerTurn!.text
    const built = CallArguments.build(fn, { turns: history.turns, asking, triggerPhrases })
    if (built._tag === "Ready") {
      if (ready.length < maxCallsPerReply) ready.push({ fn, args: built.arguments })
      continue
    }
    const label = labelOf(built.parameter)
    if (question !== undefined) continue
    question =
      retried && previous!.includes(phrases.needArgument(actionOf(fn.name), label))
        ? { _tag: "GiveUp", text: phrases.cannotWithout(actionOf(fn.name), label) }
        : { _tag: "Ask", text: phrases.needArgument(actionOf(fn.name), label) }
  }
  if (ready.length > 0) return { _tag: "Call", calls: callsOf(context, ready) }
  return question ?? { _tag: "None" }
}

const textOnly = (text: string): Reply => ({ text, tool_calls: [] })

/** True when the last user turn gave a data field a value it did not have before. */
const gaveData = (
  guide: ConversationGuide,
  turns: ReadonlyArray<Turn>,
  known: ReadonlyMap<string, FieldValue>
): boolean => {
  const before = valuesOf(guide.data_fields, turns.slice(0, -1))
  return [...known].some(([name, value]) => before.get(name) !== value)
}

/** The next assistant message for the request. */
export const next = (request: ModelRequest): Reply => {
  const guide = request.guide ?? emptyGuide
  const history = read(request.messages)
  const phrases = phrasesOf(languageOf(guide, history.turns))
  const offered = request.tool_choice === "none" ? [] : (request.tools ?? [])
  const context: Context = { guide, history, phrases, offered }
  const walk = walkOf(guide, history.turns, phrases)
  const onward = walk.next ?? phrases.anythingElse

  if (history.results.length > 0) {
    if (
      history.results.some((result) => result.call !== undefined && result.call.name === guide.end_function)
    )
      return textOnly(phrases.closing)
    const sentences = history.results.map((result) =>
      sentenceFor(result.content, actionOf(result.call?.name ?? "") || phrases.thatAction, phrases)
    )
    return textOnly(join(...sentences, onward))
  }

  const spoke = history.turns.some((turn) => turn.role === "assistant") || history.calls.length > 0
  const firstMessage = guide.first_message.trim()
  const user = lastUserTurn(history)
  if (user === undefined) return textOnly(spoke ? onward : firstMessage || phrases.greeting)
  const opening = spoke ? null : firstMessage || phrases.hello

  if (isGoodbye(user)) return ending(context, join(opening, phrases.closing))
  if (isBusy(user) || isNotInterested(user))
    return ending(context, join(opening, phrases.understood, phrases.closing))
  if (
    guide.end_function !== null &&
    triggersOf(guide, guide.end_function).some((phrase) => matches(user, phrase))
  )
    return ending(context, join(opening, phrases.closing))

  const step = functionStep(context, user)
  if (step._tag === "Call") return { text: opening ?? "", tool_calls: step.calls }
  if (step._tag === "Ask") return textOnly(join(opening, step.text))

  const gave = gaveData(guide, history.turns, walk.known)
  const giveUp = step._tag === "GiveUp" ? step.text : null
  if (isQuestion(user) && !gave) {
    const answer = answerFor(questionOf(user), guide)
    return textOnly(join(opening, giveUp, answer?.text ?? phrases.fallback, onward))
  }
  const previous = previousAssistantTurn(history) ?? ""
  const askedAnythingElse = previous.includes(phrases.anythingElse) || previous.includes(phrases.whatElse)
  if (askedAnythingElse && (isNo(user) || isThanks(user)))
    return ending(context, join(opening, phrases.closing))
  const acknowledgement = opening ?? (gave ? phrases.thanks : phrases.allRight)
  if (giveUp !== null) return textOnly(join(opening, giveUp, onward))
  if (walk.next !== undefined) return textOnly(join(acknowledgement, walk.next))
  if (walk.hasPlan) return ending(context, join(opening, phrases.closing))
  return textOnly(join(acknowledgement, askedAnythingElse && !gave ? phrases.whatElse : phrases.anythingElse))
}
