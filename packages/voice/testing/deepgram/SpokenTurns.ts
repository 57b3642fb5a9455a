import * as MuLaw from "../../src/twilio/MuLaw.js"

/**
 * The fake Deepgram's ear for callers who speak when they like (`Script.spoken`): it hears speech in
 * the audio itself, as Deepgram's endpointing does. A sample beyond ±`speechPeak` is speech; once
 * `endpointingMs` of samples within it follow speech, the utterance is over. Counted in samples of the
 * connection's encoding and rate (`linear16` little-endian, or `mulaw`), so the end is found on the
 * exact audio chunk that completes the silence, whatever the chunks' sizes.
 */

/** What a connection's script says about spoken turns. */
export interface Spoken {
  /** The caller's words, one text an utterance in order; the last is repeated once they run out. */
  readonly texts: ReadonlyArray<string>
  /** Silence after speech that ends an utterance. */
  readonly endpointingMs: number
  /** Default 500 (of 32767). */
  readonly speechPeak?: number
}

/**
 * A listener for one connection (its query's `encoding` and `sample_rate`): given each audio chunk,
 * answers how many utterances it ended (0 or 1 for any sensible chunk).
 */
export const listener = (spoken: Spoken, query: Readonly<Record<string, string>>) => {
  const rate = Number(query["sample_rate"] ?? MuLaw.sampleRate)
  const mulaw = query["encoding"] === "mulaw"
  const silenceSamples = Math.max(1, Math.round((rate * spoken.endpointingMs) / 1000))
  const peak = spoken.speechPeak ?? 500
  let heard = false
  let silent = 0
  let odd: number | null = null
  const sample = (value: number) => {
    if (Math.abs(value) > peak) {
      heard = true
      silent = 0
      return 0
    }
    silent++
    if (!heard || silent < silenceSamples) return 0
    heard = false
    silent = 0
    return 1
  }
  return (chunk: Uint8Array): number => {
    let ended = 0
    if (mulaw) {
      for (const value of MuLaw.decode(chunk)) ended += sample(value)
      return ended
    }
    let i = 0
    if (odd !== null && chunk.length > 0) {
      ended += sample((((chunk[0]! << 8) | odd) << 16) >> 16)
      odd = null
      i = 1
    }
    for (; i + 1 < chunk.length; i += 2) ended += sample((((chunk[i + 1]! << 8) | chunk[i]!) << 16) >> 16)
    if (i < chunk.length) odd = chunk[i]!
    return ended
  }
}
