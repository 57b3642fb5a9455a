/** A tool's page in the console. */
export const toolPath = (toolUuid: string): string => `tools/${encodeURIComponent(toolUuid)}`
