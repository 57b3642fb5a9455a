/** (to be written) */
export const calls: ReadonlyArray<string> = []
