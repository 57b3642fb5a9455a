/** (to be written) */
export const webhooks: ReadonlyArray<string> = []
