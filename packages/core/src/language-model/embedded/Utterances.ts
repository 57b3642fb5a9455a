import { says, saysAny, words } from "./Words.js"

/**
 * What a user's turn is, read from its words: a question, a goodbye, a "busy" or "not interested", a
 * refusal to answer. English and Polish phrases, matched as whole words; nothing is understood beyond them.
 */

/** Words that open a question (folded). */
const questionWords = new Set(
  (
    "what when where who whom whose why how which can could do does did is are am was were will would should " +
    "shall may might have has co czy kiedy gdzie kto dlaczego czemu jak jaki jaka jakie jakiego jakim ile " +
    "ktory ktora ktore ktorego skad dokad"
  ).split(" ")
)

/** True when the text asks something: it ends with `?` or opens with a question word. */
export const isQuestion = (text: string): boolean => {
  const trimmed = text.trim()
  if (trimmed.endsWith("?")) return true
  const first = words(trimmed)[0]
  return first !== undefined && questionWords.has(first)
}

/** Phrases that end a conversation. */
export const goodbyes: ReadonlyArray<string> = [
  "bye",
  "goodbye",
  "good bye",
  "bye bye",
  "see you",
  "see ya",
  "talk to you later",
  "that's all",
  "that is all",
  "that's everything",
  "nothing else",
  "i have to go",
  "i need to go",
  "gotta go",
  "have a nice day",
  "have a good day",
  "do widzenia",
  "do zobaczenia",
  "do uslyszenia",
  "zegnam",
  "na razie",
  "to wszystko",
  "nic wiecej",
  "muszę kończyć",
  "pa pa"
]

/** True when the user takes leave (a question that contains such words does not). */
export const isGoodbye = (text: string): boolean => !text.trim().endsWith("?") && saysAny(text, goodbyes)

/** Phrases of a user who has no time now. */
export const busyPhrases: ReadonlyArray<string> = [
  "i'm busy",
  "i am busy",
  "busy right now",
  "not a good time",
  "bad time",
  "call me later",
  "call me back",
  "call back later",
  "no time",
  "don't have time",
  "do not have time",
  "nie mam czasu",
  "jestem zajety",
  "jestem zajeta",
  "prosze zadzwonic pozniej",
  "zadzwonic pozniej",
  "nie teraz"
]

/** Phrases of a user who wants nothing of the agent. */
export const notInterestedPhrases: ReadonlyArray<string> = [
  "not interested",
  "no thanks",
  "no thank you",
  "don't call",
  "do not call",
  "stop calling",
  "remove me",
  "leave me alone",
  "nie jestem zainteresowany",
  "nie jestem zainteresowana",
  "nie interesuje mnie",
  "nie dziekuje",
  "prosze nie dzwonic",
  "nie dzwonic"
]

export const isBusy = (text: string): boolean => saysAny(text, busyPhrases)

export const isNotInterested = (text: string): boolean => saysAny(text, notInterestedPhrases)

/** Phrases of a user who will not or cannot give what was asked. */
const refusals: ReadonlyArray<string> = [
  "i don't know",
  "i do not know",
  "don't remember",
  "rather not",
  "not telling",
  "no idea",
  "nie wiem",
  "nie pamietam",
  "wolalbym nie",
  "wolalabym nie",
  "nie powiem"
]

export const isRefusal = (text: string): boolean => saysAny(text, refusals)

/** Answers that say there is nothing more (to "anything else?"). */
const nothingMore: ReadonlyArray<string> = [
  "no",
  "nope",
  "nothing",
  "not really",
  "nie",
  "nic",
  "to wszystko"
]

/** True when the text opens with a "no": `No, thanks`, `Nope`, `Nie, dziękuję`. */
export const isNo = (text: string): boolean => {
  const first = words(text).slice(0, 2).join(" ")
  return nothingMore.some((phrase) => first === phrase || first.startsWith(`${phrase} `))
}

/** True when the text is thanks and little else ("thank you", "dziękuję bardzo"). */
export const isThanks = (text: string): boolean =>
  words(text).length <= 4 && (says(text, "thank you") || says(text, "thanks") || says(text, "dziekuje"))
