/** (to be written) */
export const doNotCall: ReadonlyArray<string> = []
