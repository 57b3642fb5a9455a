/** (to be written) */
export const triggers: ReadonlyArray<string> = []
