import { Layer, Stream } from "effect"
import { bounded, TextToSpeech } from "./TextToSpeech.js"

/**
 * The built-in text to speech (`TTS_PROVIDER=embedded`, the default): **it speaks no words**. Each word of
 * the text becomes a short tone whose pitch comes from its letters, with a pause between words, so a call
 * or a test hears something of the right rhythm and length without a provider or a key. Never presented
 * as speech. 16 kHz PCM16, one chunk per word.
 */

export const provider = "embedded"
export const sampleRate = 16_000

/** A word's tone: 60 ms a letter (120 to 600 ms), then 80 ms of silence. */
export const samplesOfWord = (word: string): Int16Array => {
  let code = 0
  for (const char of word) code = (code * 31 + (char.codePointAt(0) ?? 0)) % 997
  const hz = 300 + (code % 500)
  const toneMs = Math.min(600, Math.max(120, 60 * word.length))
  const tone = Math.round((sampleRate * toneMs) / 1000)
  const samples = new Int16Array(tone + Math.round((sampleRate * 80) / 1000))
  for (let i = 0; i < tone; i++) {
    const fade = Math.min(1, i / 80, (tone - i) / 80)
    samples[i] = Math.round(4000 * fade * Math.sin((2 * Math.PI * hz * i) / sampleRate))
  }
  return samples
}

export const make = TextToSpeech.of({
  provider,
  sample_rate: sampleRate,
  synthesize: bounded((text) =>
    Stream.fromIterable(text.split(/\s+/).filter((word) => word !== "")).pipe(
      Stream.map((word) => ({ sample_rate: sampleRate, samples: samplesOfWord(word) }))
    )
  )
})

export const layer: Layer.Layer<TextToSpeech> = Layer.succeed(TextToSpeech, make)
