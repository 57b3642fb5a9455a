/** The separator the API puts between the prompt and an accepted suggestion (core's `ImprovementDecision`). */
export const separator = "\n\n"

/** The prompt an accepted suggestion makes: its text added to the end of the current prompt. */
export const acceptedPrompt = (prompt: string, text: string): string => prompt + separator + text
