/**
 * A fresh key for the API's `Idempotency-Key` (a repeated click or a retry then does nothing twice): a
 * UUID where the page may make one (`crypto.randomUUID` is for secure contexts only), else 32 random hex
 * digits.
 */
export const idempotencyKey = (): string =>
  typeof crypto.randomUUID === "function"
    ? crypto.randomUUID()
    : Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) =>
        byte.toString(16).padStart(2, "0")
      ).join("")
