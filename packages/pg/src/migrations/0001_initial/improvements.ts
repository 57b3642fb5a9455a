/** (to be written) */
export const improvements: ReadonlyArray<string> = []
