import { request } from "node:http"
import { Effect, FiberSet, type Scope } from "effect"
import * as MuLaw from "../../src/twilio/MuLaw.js"
import * as TwilioSignature from "../../src/twilio/TwilioSignature.js"
import * as AudioFixtures from "./AudioFixtures.js"
import * as FakeMediaStream from "./FakeMediaStream.js"
import type * as FakeTwilio from "./FakeTwilio.js"

/**
 * The people the fake Twilio calls, and Twilio between them and the engine: every call the engine
 * creates at `FakeTwilio` is played to its end, on its own. Twilio's `ringing` status callback, the
 * answer webhook (its `<Stream>` URL), `in-progress`, then the Media Stream: the caller's audio as real
 * time 20 ms frames, silence unless they speak. The caller waits for the agent's greeting (its first
 * mark), says something (`speechMs` of tone), waits for the reply's mark, and so on `turns` times; the
 * fake Deepgram hears the turns in the audio (`DeepgramScript.Script.spoken`, with the same
 * `endpointingMs`). The call ends when the engine hangs up through the REST API, when the media socket
 * closes (the engine closed it, or its server died: Twilio then ends the call), or after `maxCallMs`
 * (the caller hangs up); Twilio then sends `stop`, and the `completed` status callback with the call's
 * duration. Webhooks are signed with the account's token over the URLs the engine gave, and sent on a
 * new connection each (through `FakePublicAddress` they reach any server), tried again a few times when
 * the connection fails or the answer is a 5xx, as a balancer in front of servers would.
 *
 * Each turn is timed: from the caller's frame that completed the silence ending their words (when the
 * speech recogniser can know they stopped) to the first agent audio frame after it.
 */

export interface Options {
  readonly twilio: FakeTwilio.Running
  /** How many times each caller speaks. Default 2. */
  readonly turns?: number
  /** How long each utterance lasts. Default 400. */
  readonly speechMs?: number
  /** The silence after speech that ends an utterance: the fake Deepgram's `spoken.endpointingMs`. Default 200. */
  readonly endpointingMs?: number
  /** A call still going after this long is hung up by its caller. Default 60000. */
  readonly maxCallMs?: number
  /** How often new calls are looked for. Default 10. */
  readonly pollMs?: number
}

/** A timed turn. */
export interface Turn {
  readonly sid: string
  readonly turn: number
  /** The silence ending the caller's words complete → the agent's first audio frame after it. */
  readonly latencyMs: number
}

/** A call's media socket that did not open (`FakeMediaStream.connect` failed). */
const notOpened = Symbol("stream not opened")

/** How a call ended. */
export type End =
  /** The engine hung up through the REST API. */
  | "hung_up"
  /** The media socket closed (by the engine, or its server died) before any hang-up. */
  | "media_closed"
  /**
   * The media socket did not open: refused, failed, or not open within the fake's deadline (5 s; on a
   * saturated server, a call that never had a turn).
   */
  | "stream_not_opened"
  /** The caller hung up after `maxCallMs`. */
  | "caller_hung_up"
  /** The answer webhook gave no `<Stream>` (an error status or no server): Twilio ends the call. */
  | "answer_refused"

export interface Outcome {
  readonly sid: string
  readonly to: string
  readonly end: End
  /** Turns the caller completed (spoke and heard a reply to). */
  readonly turns: number
  /** From the answer to the end. */
  readonly talkMs: number
  /** What went wrong on the way (a webhook that failed), or null. */
  readonly problem: string | null
}

export interface Running {
  readonly turns: () => ReadonlyArray<Turn>
  readonly outcomes: () => ReadonlyArray<Outcome>
  /** Calls being played now. */
  readonly live: () => number
}

const frameMs = 20

/** A form POST signed as Twilio signs it, on a connection of its own; retried on a failed connection or a 5xx. */
const postSigned = (authToken: string, url: string, params: ReadonlyArray<readonly [string, string]>) =>
  Effect.promise(async () => {
    const body = new URLSearchParams(
      params.map(([name, value]): [string, string] => [name, value])
    ).toString()
    const signature = TwilioSignature.sign(authToken, url, params)
    let last = "not sent"
    for (let attempt = 0; attempt < 8; attempt++) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 100 * attempt))
      const answer = await new Promise<{ status: number; body: string }>((resolve) => {
        const target = new URL(url)
        const req = request(
          {
            host: target.hostname,
            port: target.port,
            path: `${target.pathname}${target.search}`,
            method: "POST",
            agent: false,
            headers: {
              "content-type": "application/x-www-form-urlencoded",
              "user-agent": "TwilioProxy/1.1",
              [TwilioSignature.header]: signature
            }
          },
          (res) => {
            let text = ""
            res.setEncoding("utf8")
            res.on("data", (chunk: string) => (text += chunk))
            res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }))
            res.on("error", () => resolve({ status: 0, body: "" }))
          }
        )
        req.setTimeout(30_000, () => req.destroy())
        req.on("error", (error) => resolve({ status: 0, body: error.message }))
        req.end(body)
      })
      if (answer.status !== 0 && answer.status < 500) return answer
      last = `${answer.status} ${answer.body.slice(0, 200)}`
    }
    return { status: 0, body: last }
  })

const sleepUntil = (at: number) => Effect.sleep(Math.max(0, at - performance.now()))

/** Plays every call the engine creates at the fake Twilio, for the scope. */
export const start = (options: Options): Effect.Effect<Running, never, Scope.Scope> =>
  Effect.gen(function* () {
    const { twilio } = options
    const turnsWanted = options.turns ?? 2
    const speechFrames = Math.max(1, Math.round((options.speechMs ?? 400) / frameMs))
    const silenceFrames = Math.max(1, Math.ceil((options.endpointingMs ?? 200) / frameMs))
    const maxCallMs = options.maxCallMs ?? 60_000
    const speech = MuLaw.frames(AudioFixtures.mulawTone(440, speechFrames * frameMs))
    const silence = MuLaw.frames(MuLaw.encode(AudioFixtures.silence(frameMs)))[0]!
    const turns: Array<Turn> = []
    const outcomes: Array<Outcome> = []
    let live = 0
    const post = (url: string | null, params: ReadonlyArray<readonly [string, string]>) =>
      postSigned(twilio.authToken, url ?? "", params)

    /** The media stream of an answered call, until it ends; answers how it ended and the turns done. */
    const talk = (call: FakeTwilio.FakeCall, streamUrl: string, answeredAt: number) =>
      Effect.gen(function* () {
        let marks = 0
        let closed = false
        /** The caller's last turn: when its silence completed, and the first agent frame after its words. */
        let silenceDoneAt: number | null = null
        let replyAt: number | null = null
        let awaitingReply = false
        const stream = yield* FakeMediaStream.connect(streamUrl, {
          callSid: call.sid,
          accountSid: twilio.accountSid,
          onMessage: (message, at) => {
            if (message.event === "mark") marks++
            else if (message.event === "media" && awaitingReply && replyAt === null) replyAt = at
          },
          onClose: () => {
            closed = true
          }
        }).pipe(Effect.mapError(() => notOpened))
        yield* stream.start
        const ended = () =>
          closed || call.status === "completed" || performance.now() - answeredAt > maxCallMs
        const until = (check: () => boolean) =>
          Effect.gen(function* () {
            while (!check() && !ended()) yield* Effect.sleep(5)
          })

        // the caller's side of the line: a frame every 20 ms, their words when they speak, else silence
        const queued: Array<Uint8Array> = []
        let sent = 0
        let silenceEndsAtFrame = Number.POSITIVE_INFINITY
        const pump = Effect.gen(function* () {
          const began = performance.now()
          while (!ended()) {
            yield* stream.sendAudio(queued.shift() ?? silence)
            sent++
            if (sent === silenceEndsAtFrame) silenceDoneAt = performance.now()
            if (queued.length === 0 && sent > silenceEndsAtFrame - silenceFrames) awaitingReply = true
            yield* sleepUntil(began + sent * frameMs)
          }
        })
        yield* Effect.forkScoped(pump)

        let done = 0
        let marksBefore = 0
        for (let turn = 1; turn <= turnsWanted && !ended(); turn++) {
          // the greeting, or the previous reply, played to its mark
          yield* until(() => marks > marksBefore)
          if (ended()) break
          marksBefore = marks
          silenceDoneAt = null
          replyAt = null
          awaitingReply = false
          queued.push(...speech)
          silenceEndsAtFrame = sent + queued.length + silenceFrames
          yield* until(() => replyAt !== null)
          if (replyAt === null || silenceDoneAt === null) break
          turns.push({ sid: call.sid, turn, latencyMs: replyAt - silenceDoneAt })
          done = turn
        }
        // the last reply played; the engine hangs up (or the caller, after maxCallMs)
        yield* until(() => false)
        const end: End = call.status === "completed" ? "hung_up" : closed ? "media_closed" : "caller_hung_up"
        if (!closed) yield* stream.stop
        return { end, turns: done }
      }).pipe(
        Effect.scoped,
        Effect.catchAll((error) =>
          Effect.succeed({
            end: (error === notOpened ? "stream_not_opened" : "media_closed") as End,
            turns: 0
          })
        )
      )

    const play = (call: FakeTwilio.FakeCall) =>
      Effect.gen(function* () {
        const problems: Array<string> = []
        const note = (what: string, answer: { status: number; body: string }) => {
          if (answer.status < 200 || answer.status >= 300)
            problems.push(`${what}: ${answer.status} ${answer.body.slice(0, 200)}`)
        }
        call.status = "ringing"
        note("ringing", yield* post(call.status_callback, twilio.statusParams(call, "ringing", 1)))
        const answer = yield* post(call.url, [
          ["AccountSid", twilio.accountSid],
          ["ApiVersion", "2010-04-01"],
          ["CallSid", call.sid],
          ["CallStatus", "in-progress"],
          ["Direction", "outbound-api"],
          ["From", call.from],
          ["To", call.to]
        ])
        note("answer", answer)
        const streamUrl = /<Stream url="([^"]+)"/.exec(answer.body)?.[1]?.replaceAll("&amp;", "&")
        const answeredAt = performance.now()
        let end: End = "answer_refused"
        let done = 0
        if (answer.status === 200 && streamUrl !== undefined) {
          if (call.status === "ringing") call.status = "in-progress"
          note("in-progress", yield* post(call.status_callback, twilio.statusParams(call, "in-progress", 2)))
          const talked = yield* talk(call, streamUrl, answeredAt)
          end = talked.end
          done = talked.turns
        }
        const talkMs = performance.now() - answeredAt
        call.status = "completed"
        call.duration = String(Math.ceil(talkMs / 1000))
        note(
          "completed",
          yield* post(
            call.status_callback,
            twilio.statusParams(call, "completed", 3, [["CallDuration", call.duration]])
          )
        )
        outcomes.push({
          sid: call.sid,
          to: call.to,
          end,
          turns: done,
          talkMs,
          problem: problems.length === 0 ? null : problems.join("; ")
        })
      }).pipe(
        Effect.ensuring(
          Effect.sync(() => {
            live--
          })
        )
      )

    const playing = yield* FiberSet.make<void, never>()
    const seen = new Set<string>()
    yield* Effect.forkScoped(
      Effect.forever(
        Effect.gen(function* () {
          for (const call of twilio.calls()) {
            if (seen.has(call.sid)) continue
            seen.add(call.sid)
            live++
            yield* FiberSet.run(playing, play(call))
          }
          yield* Effect.sleep(options.pollMs ?? 10)
        })
      )
    )
    return {
      turns: () => [...turns],
      outcomes: () => [...outcomes],
      live: () => live
    }
  })
