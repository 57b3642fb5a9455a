/** (to be written) */
export const tools: ReadonlyArray<string> = []
