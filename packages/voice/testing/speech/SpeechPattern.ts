/**
 * The audio the fake speech server answers for a text: for each word, 60 ms of a sine whose pitch comes
 * from the word's letters (200 to 1150 Hz), then 20 ms of silence. Deterministic, so a test knows the
 * exact samples to expect at any rate, and different texts sound different.
 */

export const wordMs = 60
export const gapMs = 20
export const amplitude = 6000

/** The pitch of a word, in Hz. */
export const pitchOf = (word: string): number => {
  let sum = 0
  for (const char of word) sum += char.codePointAt(0)!
  return 200 + (sum % 20) * 50
}

/** The samples spoken for `text` at `sampleRate`. */
export const samplesFor = (text: string, sampleRate: number): Int16Array => {
  const words = text.split(/\s+/).filter((word) => word !== "")
  const toneLength = Math.round((sampleRate * wordMs) / 1000)
  const gapLength = Math.round((sampleRate * gapMs) / 1000)
  const samples = new Int16Array(words.length * (toneLength + gapLength))
  words.forEach((word, index) => {
    const pitch = pitchOf(word)
    const at = index * (toneLength + gapLength)
    for (let i = 0; i < toneLength; i++) {
      samples[at + i] = Math.round(amplitude * Math.sin((2 * Math.PI * pitch * i) / sampleRate))
    }
  })
  return samples
}
