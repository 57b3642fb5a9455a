import { Clock, Effect, Either, Fiber, Queue, type Scope } from "effect"
import type { RunAgentVersion } from "../calls/RuntimeTools.js"
import { ConversationEngine } from "../conversation/ConversationEngine.js"
import type { SpokenItem } from "../conversation/ConversationHistory.js"
import type { TokenUsage } from "../language-model/LanguageModel.js"
import type { TranscriptFragment } from "../transcripts/Transcript.js"
import * as LoopTimers from "./LoopTimers.js"
import type { MediaSession } from "./MediaSession.js"
import * as Pcm16Bytes from "./Pcm16Bytes.js"
import * as Resampling from "./Resampling.js"
import * as TakeStream from "./TakeStream.js"
import { emptyTurn, hear, SpeechToText, type TranscriptEvent } from "./SpeechToText.js"
import { TextToSpeech } from "./TextToSpeech.js"
import * as TurnLatency from "./TurnLatency.js"
import type { VoiceLoopEnd } from "./VoiceLoopEnd.js"
export type { VoiceLoopEnd } from "./VoiceLoopEnd.js"
import * as VoiceLoopEnds from "./VoiceLoopEnd.js"
import { type LoopEvent, noteSpeaker, type Speaking, type TimerKind } from "./VoiceLoopEvents.js"
import { lastWords } from "./VoiceLoopLastWords.js"
import { VoiceLoopSettings } from "./VoiceLoopSettings.js"
import * as VoicePhrases from "./VoicePhrases.js"
import { fixedText, type ReplySource, speak } from "./VoiceReply.js"

/**
 * The voice loop of one call (phone or browser), on Effect fibers in its own scope. The agent greets
 * (its first message, else the model's opening); the caller's audio goes to a speech-to-text session; the
 * end of the caller's turn (the provider's endpointing, else `turnEndFallbackMs` without new words) sends
 * the words to the conversation engine (channel `voice`), whose reply is spoken sentence by sentence
 * (`VoiceReply`). Caller speech while the agent's audio plays is a barge-in: `clear`, the reply in
 * flight interrupted, and the transcript keeps only the sentences whose mark came back. A key pressed is a
 * user turn `[DTMF 1]`. Silence past `silenceSeconds` gets one reprompt, then a goodbye and the end. The
 * loop ends on `end_call` or a transfer (after its last words were played), the caller hanging up, the
 * silence, or a provider failing; every fiber it started is interrupted and every scope closed when it
 * returns. It hangs up nothing itself: its caller does that with the reason. See docs/voice.md.
 */

export interface VoiceLoopInput {
  /** The run's agent version (its prompt, first message and tools). */
  readonly version: RunAgentVersion
  readonly media: MediaSession
  /** The agent's language (BCP 47): speech to text, the voice's language, the reprompt. */
  readonly language: string
  /** The agent's voice; the text-to-speech default otherwise. */
  readonly voice?: string | undefined
  /** Each fragment of the transcript as it is settled (the agent's: only what was played). */
  readonly transcript: (fragment: TranscriptFragment) => Effect.Effect<void>
  /** Each caller turn's latencies, once its answer's first frame was sent (or it ended without one). */
  readonly latency: (latency: TurnLatency.TurnLatency) => Effect.Effect<void>
  /** Tokens each model request used. */
  readonly usage?: (usage: TokenUsage) => Effect.Effect<void>
}

export const run = (
  input: VoiceLoopInput
): Effect.Effect<VoiceLoopEnd, never, ConversationEngine | SpeechToText | TextToSpeech> =>
  Effect.scoped(
    Effect.gen(function* () {
      const engine = yield* ConversationEngine
      const stt = yield* SpeechToText
      const tts = yield* TextToSpeech
      const settings = yield* VoiceLoopSettings
      const { media, version } = input
      const phrases = VoicePhrases.of(input.language)
      const speech = { voice: input.voice, language: input.language }
      const inbox = yield* Queue.unbounded<LoopEvent>()
      const offer = (event: LoopEvent) => Effect.asVoid(Queue.offer(inbox, event))
      /** A fiber's defect logged and told to the loop (its failures are handled where it runs). */
      const orDied =
        (source: Extract<LoopEvent, { _tag: "Died" }>["source"]) =>
        <E>(effect: Effect.Effect<void, E, Scope.Scope>) =>
          effect.pipe(
            Effect.catchAllDefect((defect) =>
              Effect.zipRight(
                Effect.logError("a voice loop fiber died", defect),
                offer({ _tag: "Died", source })
              )
            )
          )

      const opened = yield* Effect.either(
        stt.open({ language: input.language, encoding: "linear16", sample_rate: media.sample_rate })
      )
      if (Either.isLeft(opened)) {
        return { reason: "error", source: "speech_to_text", error: opened.left._tag } as const
      }
      const session = opened.right

      // what the provider hears, into the inbox
      yield* TakeStream.runForEach(session.events, (event) => offer({ _tag: "Heard", event })).pipe(
        Effect.matchEffect({
          onFailure: (error) => offer({ _tag: "HearingEnded", error }),
          onSuccess: () => offer({ _tag: "HearingEnded", error: null })
        }),
        orDied("speech_to_text"),
        Effect.forkScoped
      )
      // the caller's side: audio to the provider (at the session's rate), the rest into the inbox
      let resampler: Resampling.Resampler | null = null
      const hearAudio = (sampleRate: number, samples: Int16Array) => {
        if (sampleRate !== media.sample_rate && resampler?.from !== sampleRate) {
          resampler = Resampling.make(sampleRate, media.sample_rate)
        }
        const pcm = sampleRate === media.sample_rate ? samples : resampler!.push(samples)
        return pcm.length === 0
          ? Effect.void
          : session
              .send(Pcm16Bytes.encode(pcm))
              .pipe(Effect.catchAll((error) => offer({ _tag: "HearingEnded", error })))
      }
      yield* TakeStream.runForEach(media.events, (event) =>
        event._tag === "Audio" ? hearAudio(event.sample_rate, event.samples) : offer({ _tag: "Media", event })
      ).pipe(
        Effect.matchEffect({
          onFailure: (error) => offer({ _tag: "MediaEnded", error }),
          onSuccess: () => offer({ _tag: "MediaEnded", error: null })
        }),
        orDied("media"),
        Effect.forkScoped
      )

      const timers = LoopTimers.make<TimerKind>((kind, generation) =>
        offer({ _tag: "Timer", kind, generation })
      )
      const startTimer = timers.start
      const stopTimer = timers.stop

      let turn = emptyTurn
      let interim: string | null = null
      let lastWordsAt: number | null = null
      let callerTurns = 0
      let replies = 0
      let current: Speaking | null = null
      let reprompted = false
      let ending: VoiceLoopEnd | null = null
      const history: Array<SpokenItem> = []

      const say = (role: "user" | "assistant", text: string, at: number) =>
        Effect.suspend(() => {
          const timestamp = new Date(at)
          history.push({ _tag: "Spoken", role, text, timestamp })
          return input.transcript({ role, text, timestamp })
        })

      const reportLatency = (speaking: Speaking) =>
        Effect.suspend(() => {
          const moments = speaking.moments
          speaking.moments = null
          return moments === null ? Effect.void : input.latency(TurnLatency.of(moments))
        })

      const startReply = (kind: Speaking["kind"], source: ReplySource, moments: Speaking["moments"] = null) =>
        Effect.gen(function* () {
          yield* stopTimer("silence")
          const id = ++replies
          const fiber = yield* speak({
            id,
            source,
            media,
            speech,
            report: (event) =>
              event._tag === "Usage" && input.usage !== undefined
                ? input.usage(event.usage)
                : offer({ _tag: "Speaker", reply: id, event })
          }).pipe(
            Effect.either,
            Effect.flatMap((result) =>
              offer({ _tag: "ReplyEnded", reply: id, result: Either.map(result, (o) => ({ end: o.end })) })
            ),
            Effect.provideService(TextToSpeech, tts),
            orDied("reply"),
            Effect.forkScoped
          )
          current = {
            id,
            kind,
            fiber,
            startedAt: yield* Clock.currentTimeMillis,
            sentences: [],
            played: new Set(),
            samples: 0,
            done: false,
            end: null,
            moments
          }
        })

      /**
       * The reply's played sentences into the transcript; then the silence watch, or the end it asked for.
       * When the call is over (`over`), an ending reply (a goodbye, `end_call`'s words, a transfer's) keeps
       * every sentence sent: the caller hanging up while it plays takes no word of it back.
       */
      const settleReply = (over: boolean) =>
        Effect.gen(function* () {
          const speaking = current
          if (speaking === null) return
          current = null
          yield* stopTimer("playback")
          yield* Fiber.interrupt(speaking.fiber)
          yield* reportLatency(speaking)
          const keepSent = over && (speaking.kind === "goodbye" || speaking.end !== null)
          const text = speaking.sentences
            .filter((s) => keepSent || speaking.played.has(s.mark))
            .map((s) => s.text)
            .join(" ")
          if (text !== "") yield* say("assistant", text, speaking.startedAt)
          if (speaking.end !== null && ending === null) ending = speaking.end
          if (ending === null) yield* startTimer("silence", settings.silenceSeconds * 1000)
        })
      const settle = settleReply(false)

      /** The caller's side ended: the reply settled, then the caller's last words heard into the transcript. */
      const callerGone = Effect.gen(function* () {
        yield* settleReply(true)
        yield* stopTimer("turn")
        const at = lastWordsAt ?? (yield* Clock.currentTimeMillis)
        const words = yield* lastWords({ session, inbox, turn, interim, within: settings.lastWordsMs })
        for (const text of words) yield* say("user", text, at)
      })

      /** The caller speaks over the agent: what is queued is dropped, the reply stopped. */
      const bargeIn = Effect.gen(function* () {
        if (current === null || current.kind === "goodbye") return
        yield* media.clear.pipe(Effect.catchAll((error) => offer({ _tag: "MediaEnded", error })))
        yield* settle
        yield* stopTimer("silence")
      })

      const callerActive = Effect.gen(function* () {
        reprompted = false
        yield* stopTimer("silence")
        yield* bargeIn
      })

      const userTurn = (text: string, stoppedAt: number) =>
        Effect.gen(function* () {
          const finalAt = yield* Clock.currentTimeMillis
          yield* callerActive
          if (ending !== null) return
          const before = [...history]
          const moments = {
            turn: ++callerTurns,
            callerStopped: stoppedAt,
            transcriptFinal: finalAt,
            firstToken: null,
            firstAudio: null,
            firstFrame: null
          }
          yield* startReply(
            "answer",
            (emit) => engine.reply({ version, history: before, user_text: text, channel: "voice" }, emit),
            moments
          )
          // written while the model is asked (its request is given the words, not read from storage); the
          // reply's own fragments are written after this one (the loop takes its events one at a time)
          yield* say("user", text, finalAt)
        })

      const endTurn = (text: string | null) =>
        Effect.gen(function* () {
          yield* stopTimer("turn")
          const stoppedAt = lastWordsAt ?? (yield* Clock.currentTimeMillis)
          turn = emptyTurn
          interim = null
          lastWordsAt = null
          if (text !== null && text.trim() !== "") yield* userTurn(text.trim(), stoppedAt)
          else if (current === null && ending === null && !timers.isRunning("silence")) {
            yield* startTimer("silence", settings.silenceSeconds * 1000)
          }
        })

      const onHeard = (event: TranscriptEvent) =>
        Effect.gen(function* () {
          const words = event._tag === "UtteranceEnd" ? "" : event.text.trim()
          if (words !== "") {
            lastWordsAt = yield* Clock.currentTimeMillis
            if (event._tag === "Interim") interim = words
            else interim = null
            yield* callerActive
            yield* startTimer("turn", settings.turnEndFallbackMs)
          }
          const [next, ended] = hear(turn, event)
          turn = next
          if (ended !== null) yield* endTurn(ended)
          else if (event._tag === "UtteranceEnd" && interim !== null) yield* endTurn(interim)
        })

      const allPlayed = (speaking: Speaking) => speaking.sentences.every((s) => speaking.played.has(s.mark))

      /** One inbox event; the end when it ends the loop. */
      const handle = (event: LoopEvent): Effect.Effect<VoiceLoopEnd | null, never, Scope.Scope> =>
        Effect.gen(function* () {
          switch (event._tag) {
            case "Heard":
              yield* onHeard(event.event)
              break
            case "Died":
              yield* settle
              return { reason: "error", source: "voice_loop", error: "Defect" } as const
            case "HearingEnded":
              yield* settle
              return {
                reason: "error",
                source: "speech_to_text",
                error: event.error?._tag ?? "SpeechToTextEnded"
              } as const
            case "MediaEnded":
              yield* callerGone
              return event.error === null
                ? ({ reason: "hangup" } as const)
                : ({ reason: "error", source: "media", error: event.error._tag } as const)
            case "Media": {
              const inbound = event.event
              if (inbound._tag === "Stopped") {
                yield* callerGone
                return { reason: "hangup" } as const
              }
              if (inbound._tag === "Dtmf") {
                yield* userTurn(`[DTMF ${inbound.digit}]`, yield* Clock.currentTimeMillis)
                break
              }
              const speaking = current
              if (speaking === null || !speaking.sentences.some((s) => s.mark === inbound.name)) break
              speaking.played.add(inbound.name)
              if (speaking.done && allPlayed(speaking)) yield* settle
              break
            }
            case "Speaker":
              if (current !== null && current.id === event.reply && noteSpeaker(current, event.event)) {
                yield* reportLatency(current)
              }
              break
            case "ReplyEnded": {
              const speaking = current
              if (speaking === null || speaking.id !== event.reply) break
              if (Either.isLeft(event.result)) {
                const error = event.result.left
                yield* settle
                return VoiceLoopEnds.ofReplyError(error)
              }
              speaking.done = true
              speaking.end = event.result.right.end
              yield* reportLatency(speaking)
              if (allPlayed(speaking)) yield* settle
              else {
                const playing = Math.ceil((speaking.samples * 1000) / media.sample_rate)
                yield* startTimer("playback", playing + settings.playbackGraceMs)
              }
              break
            }
            case "Timer": {
              if (!timers.take(event.kind, event.generation)) break
              if (event.kind === "turn") {
                yield* endTurn(turn.finals.length > 0 ? turn.finals.join(" ") : interim)
              } else if (event.kind === "playback") {
                if (current !== null) for (const s of current.sentences) current.played.add(s.mark)
                yield* settle
              } else if (current === null) {
                if (reprompted) {
                  ending = { reason: "silence" }
                  yield* startReply("goodbye", fixedText(phrases.goodbye))
                } else {
                  reprompted = true
                  yield* startReply("reprompt", fixedText(phrases.reprompt))
                }
              }
              break
            }
          }
          return current === null && ending !== null ? ending : null
        })

      const firstMessage = version.first_message.trim()
      yield* startReply(
        "greeting",
        firstMessage !== ""
          ? fixedText(firstMessage)
          : (emit) => engine.reply({ version, history: [], user_text: null, channel: "voice" }, emit)
      )
      for (;;) {
        const end = yield* handle(yield* Queue.take(inbox))
        if (end !== null) return end
      }
    })
  ).pipe(Effect.withSpan("VoiceLoop.run", { attributes: { language: input.language } }))
