/** (to be written) */
export const usage: ReadonlyArray<string> = []
