/**
 * What the adapters over HTTP (the language model's, speech synthesis', Twilio's REST API) share about an
 * exchange with a provider: how a network failure is named, and why an exchange is abandoned.
 */

/**
 * A network failure's code (`ECONNREFUSED`, `UND_ERR_CONNECT_TIMEOUT`), looked for on the error and up to
 * three of its causes; never its message, which may name an address. Null when there is none.
 */
export const networkFailureCode = (error: unknown): string | null => {
  let current: unknown = error
  for (let depth = 0; depth < 4 && typeof current === "object" && current !== null; depth++) {
    const code = (current as { code?: unknown }).code
    if (typeof code === "string" && /^[A-Z0-9_]{2,40}$/.test(code)) return code
    current = (current as { cause?: unknown }).cause
  }
  return null
}

/**
 * The reason an exchange left before its end is aborted with (a streamed reply that stopped at `[DONE]`, a
 * barge-in, a failure): one error for all of them. An abort without a reason makes a `DOMException`, and a
 * body destroyed without one an undici error, each with its stack captured and formatted (Node's stream
 * reads it): 0.5% of a chat turn's processor time, for errors no one reads. An exchange read to its end is
 * not aborted at all.
 */
export const abandoned = new Error("the exchange was left before its end")
