/**
 * Where a reply's tool calls go among what was said: a reply's calls run after the user message they
 * answer arrived and before the reply is kept, so each call goes after the last user message at or before
 * its time (behind the calls already there), and calls keep their time order. What was said keeps its own
 * order (the order its fragments were kept in).
 */
export const interleave = <Said, Call>(
  said: ReadonlyArray<Said>,
  calls: ReadonlyArray<Call>,
  options: {
    readonly timeOfSaid: (item: Said) => number
    readonly timeOfCall: (call: Call) => number
    readonly isUser: (item: Said) => boolean
  }
): ReadonlyArray<Said | Call> => {
  const placed: Array<{ readonly said: Said } | { readonly call: Call }> = said.map((item) => ({
    said: item
  }))
  const ordered = calls
    .map((call, index) => ({ call, index }))
    .sort((a, b) => options.timeOfCall(a.call) - options.timeOfCall(b.call) || a.index - b.index)
  for (const { call } of ordered) {
    const time = options.timeOfCall(call)
    let at = 0
    for (let i = 0; i < placed.length; i++) {
      const entry = placed[i]!
      if ("said" in entry) {
        if (options.timeOfSaid(entry.said) > time) break
        if (options.isUser(entry.said)) at = i + 1
      } else {
        if (options.timeOfCall(entry.call) > time) break
        at = i + 1
      }
    }
    placed.splice(at, 0, { call })
  }
  return placed.map((entry) => ("said" in entry ? entry.said : entry.call))
}
