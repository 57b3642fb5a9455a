import type { Spoken } from "./SpokenTurns.js"

/**
 * What the fake Deepgram answers on a connection, and the messages it is made of, shaped as Deepgram's
 * live API sends them.
 */

/** A message as sent: an object (sent as JSON) or raw text (to send something malformed). */
export type Message = object | string

/** Something the fake does once the audio received on the connection reaches `afterBytes`. */
export type Step =
  | { readonly afterBytes: number; readonly send: ReadonlyArray<Message> }
  /** The connection destroyed without a close frame (the client sees 1006). */
  | { readonly afterBytes: number; readonly drop: true }
  /** The connection closed with a code and reason, as Deepgram closes on its errors (1011 `NET-0001`). */
  | { readonly afterBytes: number; readonly close: { readonly code: number; readonly reason: string } }

export interface Script {
  /** In order of `afterBytes`. On `CloseStream` the steps not yet done are done (the provider's flush). */
  readonly steps: ReadonlyArray<Step>
  /** Never answer `CloseStream` (neither the flush nor the close). */
  readonly ignoreCloseStream?: boolean
  /**
   * How long each step waits once its audio came, as a provider that takes its time (benches subtract it
   * from a turn's latency). Default 0: at once. The flush on `CloseStream` does not wait.
   */
  readonly delayMs?: number
  /**
   * Utterances heard in the audio itself (`SpokenTurns`): each is sent as `utterance` does, `delayMs`
   * after the silence that ended it came. Besides `steps`, which still count bytes.
   */
  readonly spoken?: Spoken
}

export const emptyScript: Script = { steps: [] }

/** A `Results` message: interim unless `is_final`. */
export const results = (
  transcript: string,
  flags: { readonly is_final?: boolean; readonly speech_final?: boolean } = {}
) => ({
  type: "Results",
  channel_index: [0, 1],
  duration: 1.02,
  start: 0,
  is_final: flags.is_final ?? false,
  speech_final: flags.speech_final ?? false,
  channel: {
    alternatives: [{ transcript, confidence: transcript === "" ? 0 : 0.98, words: [] }]
  },
  metadata: { request_id: "00000000-0000-4000-8000-000000000000", model_info: { name: "general" } },
  from_finalize: false
})

export const utteranceEnd = (lastWordEnd = 1.5) => ({
  type: "UtteranceEnd",
  channel: [0, 1],
  last_word_end: lastWordEnd
})

export const speechStarted = () => ({ type: "SpeechStarted", channel: [0], timestamp: 0.2 })

export const metadata = () => ({
  type: "Metadata",
  transaction_key: "deprecated",
  request_id: "00000000-0000-4000-8000-000000000000",
  created: "2026-01-01T00:00:00.000Z",
  duration: 1.0,
  channels: 1
})

/**
 * What Deepgram sends hearing `text` spoken then a pause, once `afterBytes` of audio came: interims of
 * the growing words, the final marked `speech_final`, then `UtteranceEnd`.
 */
export const utterance = (text: string, afterBytes: number): Step => {
  const words = text.split(/\s+/).filter((word) => word !== "")
  return {
    afterBytes,
    send: [
      ...words.slice(0, -1).map((_, index) => results(words.slice(0, index + 1).join(" "))),
      results(words.join(" "), { is_final: true, speech_final: true }),
      utteranceEnd()
    ]
  }
}
