import { Deferred, Duration, Effect, Exit, Fiber, Layer, Queue, Ref, Schema, Stream } from "effect"
import { Agents } from "../../src/agents/Agents.js"
import { CallScriptRequest } from "../../src/agents/CallScript.js"
import * as RuntimeTools from "../../src/calls/RuntimeTools.js"
import * as ConversationEngine from "../../src/conversation/ConversationEngine.js"
import { InMemory } from "../../src/index.js"
import * as OutboundHttp from "../../src/outbound/OutboundHttp.js"
import { Runs } from "../../src/runs/Runs.js"
import { CreateToolRequest } from "../../src/tools/Tool.js"
import * as IntegrationProvider from "../../src/tools/IntegrationProvider.js"
import * as ToolExecutor from "../../src/tools/ToolExecutor.js"
import { Tools } from "../../src/tools/Tools.js"
import type { TranscriptFragment } from "../../src/transcripts/Transcript.js"
import * as EmbeddedSpeechToText from "../../src/voice/EmbeddedSpeechToText.js"
import * as MemoryMediaSession from "../../src/voice/MemoryMediaSession.js"
import { SpeechToText, type TranscriptEvent } from "../../src/voice/SpeechToText.js"
import type { SpeechToTextError } from "../../src/voice/SpeechToTextErrors.js"
import { TextToSpeech } from "../../src/voice/TextToSpeech.js"
import type { TurnLatency } from "../../src/voice/TurnLatency.js"
import * as VoiceLoop from "../../src/voice/VoiceLoop.js"
import * as Fixtures from "../../testing/Fixtures.js"
import * as ScriptedModel from "../conversation/ScriptedModel.js"

/**
 * The voice loop in memory: the real conversation engine over the scripted model, the embedded
 * speech-to-text (which a test can drop), a scripted text-to-speech and the in-memory media session.
 */

/** The scripted voice's rate: twice the phone's, so that every reply is resampled. */
export const speechRate = 16000

/** Samples the scripted voice gives per word (20 ms at 16 kHz). */
export const samplesPerWord = 320

/** What the scripted speech and speech-to-text did, for the tests to check. */
export class Probe extends Effect.Service<Probe>()("test/VoiceProbe", {
  effect: Effect.gen(function* () {
    return {
      /** Texts synthesized (started). */
      spoken: yield* Ref.make<ReadonlyArray<string>>([]),
      /** Texts whose synthesis was interrupted before it ended. */
      interrupted: yield* Ref.make<ReadonlyArray<string>>([]),
      /** Delay before each word's audio (TestClock time); none by default. */
      pace: yield* Ref.make<Duration.Duration>(Duration.zero),
      /** Completing it fails every open speech-to-text session's events. */
      drop: yield* Deferred.make<SpeechToTextError>(),
      /** Events every open speech-to-text session hears besides its text frames' (a provider's own). */
      heard: yield* Queue.unbounded<TranscriptEvent>(),
      /** Speech-to-text sessions open now (their scope not closed). */
      openSessions: yield* Ref.make(0)
    }
  })
}) {}

/** A word's samples: a level made from its letters, so that each word's audio is recognisable. */
export const wordSamples = (word: string): Int16Array =>
  new Int16Array(samplesPerWord).fill(([...word].reduce((sum, c) => sum + c.charCodeAt(0), 0) % 2000) + 100)

const scriptedSpeech = Layer.effect(
  TextToSpeech,
  Effect.map(Probe, (probe) =>
    TextToSpeech.of({
      provider: "scripted",
      sample_rate: speechRate,
      synthesize: (text) =>
        Stream.unwrapScoped(
          Effect.gen(function* () {
            yield* Ref.update(probe.spoken, (all) => [...all, text])
            yield* Effect.addFinalizer((exit) =>
              Exit.isInterrupted(exit) ? Ref.update(probe.interrupted, (all) => [...all, text]) : Effect.void
            )
            return Stream.fromIterable(text.split(/\s+/).filter((w) => w !== "")).pipe(
              Stream.mapEffect((word) =>
                Effect.flatMap(Ref.get(probe.pace), (pace) =>
                  Effect.as(Duration.isZero(pace) ? Effect.void : Effect.sleep(pace), {
                    sample_rate: speechRate,
                    samples: wordSamples(word)
                  })
                )
              )
            )
          })
        )
    })
  )
)

const droppableSpeechToText = Layer.effect(
  SpeechToText,
  Effect.map(Probe, (probe) =>
    SpeechToText.of({
      provider: "embedded",
      open: (options) =>
        Effect.gen(function* () {
          yield* Effect.acquireRelease(
            Ref.update(probe.openSessions, (n) => n + 1),
            () => Ref.update(probe.openSessions, (n) => n - 1)
          )
          const session = yield* EmbeddedSpeechToText.make.open(options)
          return {
            ...session,
            // the session's own events end the stream (after `finish`)
            events: session.events.pipe(
              Stream.merge(
                Stream.merge(
                  Stream.fromQueue(probe.heard),
                  Stream.fromEffect(Deferred.await(probe.drop)).pipe(Stream.flatMap((e) => Stream.fail(e)))
                ),
                { haltStrategy: "left" }
              )
            )
          }
        })
    })
  )
)

const outbound = Layer.succeed(OutboundHttp.OutboundHttp, {
  send: () =>
    Effect.succeed({
      status: 200,
      headers: { "content-type": "application/json" },
      body: new TextEncoder().encode("{}"),
      truncated: false
    })
})

const runtimeTools = RuntimeTools.layer.pipe(
  Layer.provide(ToolExecutor.layer),
  Layer.provide(IntegrationProvider.layerNone)
)

export const layer = Layer.mergeAll(ConversationEngine.layer, scriptedSpeech, droppableSpeechToText).pipe(
  Layer.provideMerge(runtimeTools),
  Layer.provideMerge(outbound),
  Layer.provideMerge(Probe.Default),
  Layer.provideMerge(ScriptedModel.layer),
  Layer.provideMerge(InMemory.layer)
)

export interface Options {
  /** The agent's greeting; "" for none (the model opens). */
  readonly greeting?: string
  /** Give the agent an `end_call` tool (function `end_conversation`). */
  readonly endCall?: boolean
  readonly echoMarks?: boolean
  /** Also done for each fragment, after it is recorded (a slow storage's write). */
  readonly onFragment?: (fragment: TranscriptFragment) => Effect.Effect<void>
}

/** A call in progress: its media session, what the loop reported, and the loop's fiber. */
export const start = (options: Options = {}) =>
  Effect.gen(function* () {
    const organization = yield* Fixtures.organization()
    const agents = yield* Agents
    const { agent } = yield* agents.createFromScript(
      organization.id,
      Schema.decodeUnknownSync(CallScriptRequest)({
        agent: {
          greeting: options.greeting ?? "Hello, this is Ada. How can I help?",
          agent_goal: "Book a table",
          conversation_structure: ["Ask for the time"],
          data_fields: []
        }
      })
    )
    if (options.endCall === true) {
      const hangUp = yield* (yield* Tools).create(
        organization.id,
        Schema.decodeUnknownSync(CreateToolRequest)({
          name: "End conversation",
          definition: { type: "end_call", config: {} }
        })
      )
      yield* agents.update(organization.id, agent.public_id, { definition: { tools: [hangUp.tool_uuid] } })
    }
    const run = yield* (yield* Runs).createConversation(organization.id, agent.public_id, { mode: "webrtc" })
    const version = yield* (yield* RuntimeTools.RuntimeTools).agentOf(run.workflow_run_id)
    const media = yield* MemoryMediaSession.make({ echoMarks: options.echoMarks ?? true })
    const fragments = yield* Ref.make<ReadonlyArray<TranscriptFragment>>([])
    const latencies = yield* Ref.make<ReadonlyArray<TurnLatency>>([])
    const loop = yield* Effect.fork(
      VoiceLoop.run({
        version,
        media,
        language: "en",
        transcript: (fragment) =>
          Effect.zipRight(
            Ref.update(fragments, (all) => [...all, fragment]),
            options.onFragment?.(fragment) ?? Effect.void
          ),
        latency: (latency) => Ref.update(latencies, (all) => [...all, latency])
      })
    )
    return { media, fragments, latencies, loop, version }
  })

/** The outbound events up to and including the first that `matches`. */
export const until = (
  media: MemoryMediaSession.MemoryMediaSession,
  matches: (event: MemoryMediaSession.OutboundEvent) => boolean
) =>
  Effect.gen(function* () {
    const seen: Array<MemoryMediaSession.OutboundEvent> = []
    for (;;) {
      const event = yield* media.next
      seen.push(event)
      if (matches(event)) return seen
    }
  })

/** Up to the mark `name`. */
export const untilMark = (media: MemoryMediaSession.MemoryMediaSession, name: string) =>
  until(media, (event) => event._tag === "Mark" && event.name === name)

/** The samples of the audio events among `events`. */
export const audioSamples = (events: ReadonlyArray<MemoryMediaSession.OutboundEvent>) =>
  events.reduce((sum, event) => sum + (event._tag === "Audio" ? event.samples.length : 0), 0)

/** Lets the loop's fibers run until they wait (no clock time passes). */
export const settle = Effect.repeatN(Effect.yieldNow(), 50)

/** The loop's end (it has ended). */
export const ended = <A, E>(loop: Fiber.Fiber<A, E>) => Fiber.join(loop)
