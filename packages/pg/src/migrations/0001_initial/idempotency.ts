/** (to be written) */
export const idempotency: ReadonlyArray<string> = []
