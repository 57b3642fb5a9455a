/**
 * The integer ids tenants see (agents, runs, documents, tools, numbers, …) are drawn at random from
 * 1..2^53−1 instead of counted: a counter shared by every organization lets one tenant read the others'
 * volume from the gaps between its own ids. JSON numbers and JavaScript stay exact over the whole range,
 * so the spec's integer fields stay integers. The SQL adapter draws ids the same way (migration 0004's
 * `random_row_id`); uniqueness is the table's primary key, and a draw that hits a used id draws again.
 */

/** The largest id drawn: every JSON client reads it back exactly. */
export const maxId = Number.MAX_SAFE_INTEGER

/** How many random bytes one draw takes (53 of their 56 bits are used). */
export const bytesPerDraw = 7

/** The id made of the first 53 bits of `bytes` (at least `bytesPerDraw` of them); 0 when they are all 0. */
export const fromBytes = (bytes: Uint8Array): number => {
  let id = bytes[0]! & 0x1f
  for (let i = 1; i < bytesPerDraw; i++) id = id * 256 + bytes[i]!
  return id
}

/** A fresh id in 1..maxId, from the platform's cryptographic random source. */
export const draw = (): number => {
  for (;;) {
    const id = fromBytes(globalThis.crypto.getRandomValues(new Uint8Array(bytesPerDraw)))
    if (id !== 0) return id
  }
}
