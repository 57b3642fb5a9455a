import { Clock, Effect, Queue, Stream } from "effect"
import type { ReplyEvent, ReplyOutcome } from "../conversation/ConversationEngine.js"
import type { TokenUsage } from "../language-model/LanguageModel.js"
import type { LanguageModelError } from "../language-model/LanguageModelErrors.js"
import type { MediaSession } from "./MediaSession.js"
import type { MediaSessionFailed } from "./LiveCallErrors.js"
import * as Resampling from "./Resampling.js"
import * as SentenceSplitter from "./SentenceSplitter.js"
import { type SpeechOptions, TextToSpeech } from "./TextToSpeech.js"
import type { TextToSpeechError } from "./TextToSpeechErrors.js"

/**
 * One reply of the agent, spoken: its text as it is written (the conversation engine's deltas, or a fixed
 * text) is split into sentences (`SentenceSplitter`); each sentence is synthesized (`TextToSpeech`) while
 * the next is still being written, its audio resampled to the transport's rate (`Resampling`) and sent
 * chunk by chunk as it arrives, then a mark named after the reply and the sentence (`3.1`, `3.2`), so that
 * the echoed marks tell which sentences were played. Interrupting it (a barge-in) stops the model and the
 * synthesis in flight; nothing more is sent.
 */

/** What the speaking tells as it goes, in order. Times are epoch milliseconds. */
export type SpeakerEvent =
  | { readonly _tag: "FirstToken"; readonly at: number }
  | { readonly _tag: "FirstAudio"; readonly at: number }
  | { readonly _tag: "FirstFrame"; readonly at: number }
  /** A sentence's audio was sent and its mark is being sent; `samples` at the transport's rate. */
  | { readonly _tag: "SentenceSent"; readonly mark: string; readonly text: string; readonly samples: number }
  /** Tokens a model request of the reply used. */
  | { readonly _tag: "Usage"; readonly usage: TokenUsage }

export type VoiceReplyError = LanguageModelError | TextToSpeechError | MediaSessionFailed

/** Where the reply's text comes from: the conversation engine's reply, or a fixed text (`fixedText`). */
export type ReplySource = (
  emit: (event: ReplyEvent) => Effect.Effect<void>
) => Effect.Effect<ReplyOutcome, LanguageModelError>

/** A text said as it is (the first message, a reprompt), as a reply that calls no model. */
export const fixedText =
  (text: string): ReplySource =>
  (emit) =>
    Effect.as(text.trim() === "" ? Effect.void : emit({ _tag: "Delta", text: text.trim() }), {
      text: text.trim(),
      tool_calls: [],
      end: null,
      usage: { prompt_tokens: 0, completion_tokens: 0 }
    })

export interface SpeakInput {
  /** The reply's number in the call: the marks' prefix. */
  readonly id: number
  readonly source: ReplySource
  readonly media: MediaSession
  readonly speech: SpeechOptions
  readonly report: (event: SpeakerEvent) => Effect.Effect<void>
}

/** Speaks one reply; its outcome once every sentence was sent (not yet played: see the marks). */
export const speak = (input: SpeakInput): Effect.Effect<ReplyOutcome, VoiceReplyError, TextToSpeech> =>
  Effect.gen(function* () {
    const tts = yield* TextToSpeech
    const { media, report } = input
    const sentences = yield* Queue.unbounded<string | null>()
    let splitter = SentenceSplitter.empty
    let tokenSeen = false
    let audioSeen = false
    let frameSent = false
    let sentenceCount = 0
    const now = Clock.currentTimeMillis

    // a model request's tokens are told once the reply's text is all queued (or the reply stopped): the
    // telling writes to storage, and the last sentence, only complete once the text ends, must not wait
    // behind that write to be spoken
    const usages: Array<TokenUsage> = []
    const tellUsages = Effect.suspend(() =>
      Effect.forEach(usages.splice(0), (usage) => report({ _tag: "Usage", usage }), { discard: true })
    )
    const write = input
      .source((event) => {
        if (event._tag === "Usage") return Effect.sync(() => void usages.push(event.usage))
        if (event._tag !== "Delta" || event.text === "") return Effect.void
        const [next, complete] = SentenceSplitter.push(splitter, event.text)
        splitter = next
        const first = tokenSeen
          ? Effect.void
          : Effect.flatMap(now, (at) => report({ _tag: "FirstToken", at }))
        tokenSeen = true
        return Effect.zipRight(first, Queue.offerAll(sentences, complete))
      })
      .pipe(
        Effect.tap(() => {
          const rest = SentenceSplitter.flush(splitter)
          return Queue.offerAll(sentences, rest === null ? [null] : [rest, null])
        }),
        Effect.ensuring(tellUsages)
      )

    /** One sentence: its audio, resampled, then its mark. */
    const say = (text: string) =>
      Effect.gen(function* () {
        let resampler: Resampling.Resampler | null = null
        let samples = 0
        const send = (pcm: Int16Array) =>
          Effect.gen(function* () {
            if (pcm.length === 0) return
            yield* media.sendAudio(pcm)
            samples += pcm.length
            if (!frameSent) {
              frameSent = true
              yield* report({ _tag: "FirstFrame", at: yield* now })
            }
          })
        yield* tts.synthesize(text, input.speech).pipe(
          Stream.runForEach((chunk) =>
            Effect.gen(function* () {
              if (!audioSeen && chunk.samples.length > 0) {
                audioSeen = true
                yield* report({ _tag: "FirstAudio", at: yield* now })
              }
              if (chunk.sample_rate !== media.sample_rate && resampler?.from !== chunk.sample_rate) {
                if (resampler !== null) yield* send(resampler.flush())
                resampler = Resampling.make(chunk.sample_rate, media.sample_rate)
              }
              yield* send(resampler === null ? chunk.samples : resampler.push(chunk.samples))
            })
          )
        )
        if (resampler !== null) yield* send((resampler as Resampling.Resampler).flush())
        sentenceCount += 1
        const mark = `${input.id}.${sentenceCount}`
        // told before the mark goes out: its echo may come back at once
        yield* report({ _tag: "SentenceSent", mark, text, samples })
        yield* media.sendMark(mark)
      })

    const speakAll: Effect.Effect<void, TextToSpeechError | MediaSessionFailed> = Effect.flatMap(
      Queue.take(sentences),
      (sentence) => (sentence === null ? Effect.void : Effect.zipRight(say(sentence), speakAll))
    )

    const [outcome] = yield* Effect.all([write, speakAll], { concurrency: 2 })
    return outcome
  })
