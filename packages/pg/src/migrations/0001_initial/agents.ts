/** (to be written) */
export const agents: ReadonlyArray<string> = []
