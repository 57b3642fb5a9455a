/** The webhook tests' shared values. */

export type Body = Record<string, any>

export const now = "2026-02-10T11:00:00.000Z"
