import { rank } from "../../knowledge-base/Search.js"
import type { Turn } from "./FieldExtraction.js"
import { questionOf } from "./FieldKinds.js"
import { isBusy, isNotInterested } from "./Utterances.js"
import { yesNoIn } from "./Values.js"
import { humanize, stem, stopWords, words } from "./Words.js"

/**
 * The option (a disposition code, an enum value) whose name and description best match a conversation,
 * by shared words: the user's words, and words standing for what happened (nobody spoke, the user was
 * busy or not interested, every data field was given, the user's last yes or no, and with a yes the words of
 * the question it answered). An option that says
 * "not" (or another negation) the conversation does not say is passed over while another fits. No match:
 * the first option.
 */

/** An option to choose, and the words that describe it (its name and its description). */
export interface Option<A> {
  readonly value: A
  readonly text: string
}

const negations = new Set(["not", "no", "never", "nie", "nigdy"])

/** Words as compared for a choice: stop words out except negations, stemmed. */
const choiceWords = (text: string): ReadonlyArray<string> =>
  words(humanize(text))
    .filter((word) => !stopWords.has(word) || negations.has(word))
    .map(stem)

/** Words for what happened in the conversation, beyond what the user said. */
export const signalsOf = (turns: ReadonlyArray<Turn>, allFieldsGiven: boolean): ReadonlyArray<string> => {
  const said = turns.filter((turn) => turn.role === "user")
  const signals: Array<string> = []
  if (said.length === 0) signals.push("no answer unanswered voicemail unreachable not reached nobody silence")
  if (said.some((turn) => isBusy(turn.text)))
    signals.push("busy later callback call back reschedule not available")
  if (said.some((turn) => isNotInterested(turn.text)))
    signals.push("not interested declined refused rejected negative")
  if (allFieldsGiven) signals.push("completed complete collected gathered success successful done")
  const answers = turns.flatMap((turn, i) => {
    const before = turns[i - 1]
    if (turn.role !== "user" || before?.role !== "assistant" || !questionOf(before.text).includes("?"))
      return []
    const answer = yesNoIn(words(turn.text).slice(0, 3).join(" "))
    return answer === undefined ? [] : [{ answer, question: questionOf(before.text) }]
  })
  const last = answers.at(-1)
  // a yes takes on what was asked ("Would you like a demo?" "Yes!": the user wants a demo)
  if (last?.answer === true) signals.push(`yes agreed accepted confirmed positive ${last.question}`)
  if (last?.answer === false) signals.push("no not declined negative")
  return signals
}

/** The best option for the conversation (`signals` from `signalsOf`); the first when none matches. */
export const choose = <A>(
  options: ReadonlyArray<Option<A>>,
  turns: ReadonlyArray<Turn>,
  signals: ReadonlyArray<string>
): A | undefined => {
  if (options.length === 0) return undefined
  const query = [
    ...turns.filter((turn) => turn.role === "user").flatMap((turn) => choiceWords(turn.text)),
    ...signals.flatMap(choiceWords)
  ]
  const heard = new Set(query)
  const described = options.map((option) => ({ option, words: choiceWords(option.text) }))
  const affirmed = described.filter(({ words: optionWords }) =>
    optionWords.every((word) => !negations.has(word) || heard.has(word))
  )
  const candidates = affirmed.length > 0 ? affirmed : described
  const best = rank(query.join(" "), candidates, (candidate) => candidate.words.join(" "), 1)[0]
  return (best?.item.option ?? options[0]!).value
}
