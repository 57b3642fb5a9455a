/**
 * Little-endian PCM16 bytes, as providers stream them, cut into whole samples. A network read may end in
 * the middle of a sample: its odd byte is carried to the next read (`carry`), never dropped or misread.
 */

/** What is left over between reads: the first byte of a sample whose second byte is yet to come, or null. */
export type Carry = number | null

export interface Decoded {
  readonly samples: Int16Array
  readonly carry: Carry
}

/** The whole samples of `carry` followed by `bytes`, and the odd byte left at the end, if any. */
export const decode = (carry: Carry, bytes: Uint8Array): Decoded => {
  const available = bytes.length + (carry === null ? 0 : 1)
  const samples = new Int16Array(available >> 1)
  let index = 0
  let at = 0
  if (carry !== null && bytes.length > 0) {
    samples[index++] = toInt16(carry | (bytes[0]! << 8))
    at = 1
  } else if (carry !== null) {
    return { samples, carry }
  }
  for (; at + 1 < bytes.length; at += 2) samples[index++] = toInt16(bytes[at]! | (bytes[at + 1]! << 8))
  return { samples, carry: at < bytes.length ? bytes[at]! : null }
}

/** Samples as little-endian bytes (what a fake provider sends, what a WAV file holds). */
export const encode = (samples: Int16Array): Uint8Array => {
  const bytes = new Uint8Array(samples.length * 2)
  for (let i = 0; i < samples.length; i++) {
    const value = samples[i]! & 0xffff
    bytes[2 * i] = value & 0xff
    bytes[2 * i + 1] = value >> 8
  }
  return bytes
}

const toInt16 = (value: number) => (value >= 0x8000 ? value - 0x10000 : value)
