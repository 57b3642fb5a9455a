import { Effect, type Scope } from "effect"
import * as WavFile from "../calls/WavFile.js"
import { type RecordingSpool, RecordingSpools, type Side } from "./RecordingSpool.js"

/**
 * A real call's recording: both sides on one timeline, mixed into one WAV at the end. The caller's audio
 * arrives in real time (the carrier sends 20 ms frames as they are spoken), so its length is the call's
 * clock: the agent's audio is placed where it was sent — or, when audio is still queued, right after it —
 * and a `clear` (barge-in) cuts what was queued past that moment, as the carrier dropped it unplayed.
 *
 * Memory is bounded: the timeline is cut in one-second blocks, and a block no write can change any more
 * goes to the call's `RecordingSpool` (temporary files on the server): the caller's once it is full, the
 * agent's once the caller's clock has passed it (or once more than `maxAgentAheadSeconds` are queued
 * ahead of it: a clear no longer cuts those). A live call so holds about one second of the caller's audio
 * and the agent's audio queued ahead of the caller's clock. The mix, at the end, reads the blocks back one
 * at a time, sums them clipped to 16 bits into the WAV (the only whole copy, what is stored), and yields
 * to other fibers between blocks. At most `WavFile.maxSeconds` are kept. A spool that fails gives the
 * recording up (logged): the call goes on without one.
 */

/** How far ahead of the caller's clock the agent's queued audio is kept in memory (past it, it is spooled). */
export const maxAgentAheadSeconds = 120

export interface CallRecording {
  /** Caller audio heard (PCM16 at the recording's rate). */
  readonly caller: (samples: Int16Array) => Effect.Effect<void>
  /**
   * `caller`, recorded at once (not when the effect runs): answers the spool writes it made due, or
   * `Effect.void` itself when there are none (most frames: the reader then runs nothing for the recording).
   */
  readonly callerNow: (samples: Int16Array) => Effect.Effect<void>
  /** Agent audio sent (PCM16 at the recording's rate). */
  readonly agent: (samples: Int16Array) => Effect.Effect<void>
  /** The agent's queued audio was dropped (a barge-in): what lies past the caller's clock is cut. */
  readonly clear: Effect.Effect<void>
  /** Seconds recorded so far (the longer side). */
  readonly seconds: () => number
  /** Samples held in memory now (both sides): what the spool keeps the call from growing. */
  readonly samplesInMemory: () => number
  /** Both sides mixed, as a WAV file; null when nothing was recorded or the recording was given up. */
  readonly wav: Effect.Effect<Uint8Array | null>
}

const bytesOf = (samples: Int16Array): Uint8Array => {
  const bytes = new Uint8Array(samples.length * 2)
  const view = new DataView(bytes.buffer)
  for (let i = 0; i < samples.length; i++) view.setInt16(i * 2, samples[i]!, true)
  return bytes
}

const samplesOf = (bytes: Uint8Array | null, into: Int16Array) => {
  into.fill(0)
  if (bytes === null) return
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const n = Math.min(into.length, bytes.length >> 1)
  for (let i = 0; i < n; i++) into[i] = view.getInt16(i * 2, true)
}

/** A recording over `spool` (one-second blocks at `sampleRate`). */
export const over = (spool: RecordingSpool, sampleRate: number = WavFile.sampleRate): CallRecording => {
  const block = sampleRate
  const limit = WavFile.maxSeconds * sampleRate
  let broken = false
  const store = (side: Side, index: number, samples: Int16Array) =>
    broken
      ? Effect.void
      : spool.write(side, index, bytesOf(samples)).pipe(
          Effect.catchAll((error) => {
            broken = true
            return Effect.logWarning(`a call's recording was given up: ${error.message}`)
          })
        )

  // the caller's side: blocks below `callerBlock` are spooled, the one being filled is `callerPending`
  const callerPending = new Int16Array(block)
  let callerBlock = 0
  let callerLength = 0
  // the agent's side: the blocks not spooled yet, by index; where the next audio goes
  const agentBlocks = new Map<number, Int16Array>()
  let agentLength = 0
  let agentAt = 0

  /**
   * Spools the agent's blocks the caller's clock has passed, and those too far ahead of it. Called for
   * every frame of either side: nothing is allocated nor run when no block is due (most frames), and the
   * answer is then `Effect.void` itself.
   */
  const settleAgentNow = (): Effect.Effect<void> => {
    const final = Math.floor(callerLength / block)
    const ahead = Math.floor(agentLength / block) - final - maxAgentAheadSeconds
    let due: Array<number> | undefined
    for (const index of agentBlocks.keys()) {
      if (index < final || index < final + ahead) (due ??= []).push(index)
    }
    if (due === undefined) return Effect.void
    due.sort((x, y) => x - y)
    return Effect.forEach(
      due,
      (index) => {
        const samples = agentBlocks.get(index)!
        agentBlocks.delete(index)
        return store("agent", index, samples)
      },
      { discard: true }
    )
  }
  const settleAgent = Effect.suspend(settleAgentNow)

  const callerNow = (samples: Int16Array): Effect.Effect<void> => {
    const writes: Array<Effect.Effect<void>> = []
    let from = 0
    while (from < samples.length && callerLength < limit) {
      const offset = callerLength % block
      const n = Math.min(block - offset, samples.length - from, limit - callerLength)
      callerPending.set(samples.subarray(from, from + n), offset)
      from += n
      callerLength += n
      if (callerLength % block === 0) {
        writes.push(store("caller", callerBlock, callerPending.slice()))
        callerBlock++
      }
    }
    // a block filled (one frame in fifty) is written; the others only settle the agent's side
    return writes.length === 0
      ? settleAgentNow()
      : Effect.zipRight(Effect.all(writes, { discard: true }), settleAgent)
  }

  const agent = (samples: Int16Array) =>
    Effect.suspend(() => {
      agentAt = Math.max(agentAt, callerLength)
      const end = Math.min(agentAt + samples.length, limit)
      for (let at = agentAt; at < end;) {
        const index = Math.floor(at / block)
        const offset = at - index * block
        const n = Math.min(block - offset, end - at)
        let target = agentBlocks.get(index)
        if (target === undefined) {
          target = new Int16Array(block)
          agentBlocks.set(index, target)
        }
        target.set(samples.subarray(at - agentAt, at - agentAt + n), offset)
        at += n
      }
      agentLength = Math.max(agentLength, end)
      agentAt = end
      return settleAgent
    })

  const clear = Effect.sync(() => {
    if (callerLength < agentLength) {
      for (const [index, samples] of agentBlocks) {
        const start = index * block
        if (start + block <= callerLength) continue
        samples.fill(0, Math.max(0, callerLength - start))
      }
      agentLength = callerLength
    }
    agentAt = callerLength
  })

  const wav = Effect.gen(function* () {
    const length = Math.max(callerLength, agentLength)
    if (broken || length === 0) return null
    const out = WavFile.fromSamples(new Int16Array(0), sampleRate)
    const bytes = new Uint8Array(out.length + length * 2)
    bytes.set(out)
    const view = new DataView(bytes.buffer)
    view.setUint32(4, 36 + length * 2, true)
    view.setUint32(40, length * 2, true)
    const a = new Int16Array(block)
    const b = new Int16Array(block)
    for (let index = 0; index * block < length; index++) {
      if (index < callerBlock) samplesOf(yield* spool.read("caller", index), a)
      else a.set(callerPending)
      const held = agentBlocks.get(index)
      if (held !== undefined) b.set(held)
      else samplesOf(yield* spool.read("agent", index), b)
      const start = index * block
      const end = Math.min(start + block, length)
      for (let i = start; i < end; i++) {
        const sum = (i < callerLength ? a[i - start]! : 0) + (i < agentLength ? b[i - start]! : 0)
        view.setInt16(WavFile.headerBytes + i * 2, sum > 32767 ? 32767 : sum < -32768 ? -32768 : sum, true)
      }
      // the mix of a long call takes a while: other calls' fibers run between its blocks
      yield* Effect.yieldNow()
    }
    return bytes
  }).pipe(
    Effect.catchAll((error) =>
      Effect.as(Effect.logWarning(`a call's recording could not be mixed: ${error.message}`), null)
    )
  )

  return {
    caller: (samples) => Effect.suspend(() => callerNow(samples)),
    callerNow,
    agent,
    clear,
    seconds: () => Math.max(callerLength, agentLength) / sampleRate,
    samplesInMemory: () => block + agentBlocks.size * block,
    wav
  }
}

/** A recording over a fresh spool of the `RecordingSpools` in context, removed with the scope. */
export const make = (
  sampleRate: number = WavFile.sampleRate
): Effect.Effect<CallRecording, never, Scope.Scope> =>
  Effect.gen(function* () {
    const spools = yield* RecordingSpools
    const spool = yield* Effect.either(spools.open)
    if (spool._tag === "Right") return over(spool.right, sampleRate)
    yield* Effect.logWarning(`a call's recording could not start: ${spool.left.message}`)
    const failing: RecordingSpool = {
      write: () => Effect.fail(spool.left),
      read: () => Effect.fail(spool.left)
    }
    return over(failing, sampleRate)
  })
