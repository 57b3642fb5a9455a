/** (to be written) */
export const campaigns: ReadonlyArray<string> = []
