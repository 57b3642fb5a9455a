/**
 * Question and answer pairs written in a text as a call script's FAQ is written into an agent's prompt
 * (`Q: …` on one line, `A: …` on the next; `Question:`/`Answer:` too), so that a rule-based model can
 * answer them. Text that is not such a pair is ignored.
 */

export interface FaqEntry {
  readonly question: string
  readonly answer: string
}

// the text starts with a non-space: in a bare `Q:   `, `.+?` would take one of the spaces
const questionLine = /^\s*(?:[-*]\s*)?(?:q|question)\s*[:.)]\s*(\S.*?)\s*$/i
const answerLine = /^\s*(?:[-*]\s*)?(?:a|answer)\s*[:.)]\s*(\S.*?)\s*$/i

/** The pairs in the text, in order: a question line directly followed by an answer line. */
export const parse = (text: string): ReadonlyArray<FaqEntry> => {
  const lines = text.split(/\r?\n/)
  const entries: Array<FaqEntry> = []
  for (let i = 0; i + 1 < lines.length; i++) {
    const question = questionLine.exec(lines[i]!)
    if (question === null) continue
    const answer = answerLine.exec(lines[i + 1]!)
    if (answer === null) continue
    entries.push({ question: question[1]!, answer: answer[1]! })
    i += 1
  }
  return entries
}
