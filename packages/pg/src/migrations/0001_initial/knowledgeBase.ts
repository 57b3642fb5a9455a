/** (to be written) */
export const knowledgeBase: ReadonlyArray<string> = []
