/** (to be written) */
export const integrations: ReadonlyArray<string> = []
