/** (to be written) */
export const phoneNumbers: ReadonlyArray<string> = []
