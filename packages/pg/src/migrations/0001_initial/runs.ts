/** (to be written) */
export const runs: ReadonlyArray<string> = []
