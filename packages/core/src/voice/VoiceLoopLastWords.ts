import { Duration, Effect, Queue } from "effect"
import { hear, type Session, type Turn } from "./SpeechToText.js"
import type { LoopEvent } from "./VoiceLoopEvents.js"

/**
 * The caller's last words when the caller's side ends (a hang-up mid-utterance): the speech-to-text
 * session is finished (the provider gives its last results) and what it still hears is read from the
 * loop's inbox until its events end — each turn it ends, then what is left of the turn being spoken (its
 * final words, else its last interim). Everything else still in the inbox is dropped: the call is over.
 * Bounded by `within` (the provider's own finish is bounded too); what was heard by then is kept.
 */
export const lastWords = (input: {
  readonly session: Session
  readonly inbox: Queue.Dequeue<LoopEvent>
  readonly turn: Turn
  readonly interim: string | null
  readonly within: Duration.DurationInput
}): Effect.Effect<ReadonlyArray<string>> =>
  Effect.suspend(() => {
    const words: Array<string> = []
    let turn = input.turn
    let interim = input.interim
    const drain = Effect.gen(function* () {
      yield* Effect.ignore(input.session.finish)
      for (;;) {
        const event = yield* Queue.take(input.inbox)
        if (event._tag === "HearingEnded") return
        if (event._tag !== "Heard") continue
        const heard = event.event
        if (heard._tag === "Interim") interim = heard.text.trim() === "" ? interim : heard.text.trim()
        else if (heard._tag === "Final" && heard.text.trim() !== "") interim = null
        const [next, ended] = hear(turn, heard)
        turn = next
        if (ended !== null) {
          words.push(ended)
          interim = null
        } else if (heard._tag === "UtteranceEnd" && interim !== null) {
          words.push(interim)
          interim = null
        }
      }
    })
    return Effect.timeout(drain, input.within).pipe(
      Effect.ignore,
      Effect.map(() => {
        const rest = turn.finals.length > 0 ? turn.finals.join(" ") : interim
        return [...words, ...(rest === null ? [] : [rest])].map((w) => w.trim()).filter((w) => w !== "")
      })
    )
  })
