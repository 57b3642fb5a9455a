import { describe, expect, it } from "@effect/vitest"
import * as Pcm16Bytes from "@voice-agent-platform/core/voice/Pcm16Bytes.js"

describe("Pcm16Bytes", () => {
  const samples = Int16Array.from([0, 1, -1, 32767, -32768, 258, -258])
  const bytes = Pcm16Bytes.encode(samples)

  it("encodes little-endian and decodes back", () => {
    expect(Array.from(bytes.subarray(0, 6))).toEqual([0, 0, 1, 0, 0xff, 0xff])
    expect(Pcm16Bytes.decode(null, bytes)).toEqual({ samples, carry: null })
  })

  it("carries the odd byte of a read to the next, at every split", () => {
    for (let split = 0; split <= bytes.length; split++) {
      const first = Pcm16Bytes.decode(null, bytes.subarray(0, split))
      expect(first.carry === null).toBe(split % 2 === 0)
      const second = Pcm16Bytes.decode(first.carry, bytes.subarray(split))
      expect(second.carry).toBeNull()
      expect(Int16Array.from([...first.samples, ...second.samples])).toEqual(samples)
    }
  })

  it("bytes one at a time, and an empty read keeping the carry", () => {
    let carry: Pcm16Bytes.Carry = null
    const out: Array<number> = []
    for (const byte of bytes) {
      const empty = Pcm16Bytes.decode(carry, new Uint8Array(0))
      expect(empty).toEqual({ samples: new Int16Array(0), carry })
      const decoded = Pcm16Bytes.decode(carry, Uint8Array.of(byte))
      out.push(...decoded.samples)
      carry = decoded.carry
    }
    expect(Int16Array.from(out)).toEqual(samples)
  })
})
