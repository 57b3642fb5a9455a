import type { Tool } from "../tools/Tool.js"
import type { ToolParameter } from "../tools/ToolDefinition.js"

/**
 * Which tools a simulated call uses, and with what: the agent's HTTP API tools that have trigger phrases
 * are asked for by the simulated caller (it says the first phrase of each), and a tool is called at the
 * first caller line that contains one of its phrases, once per call.
 */

/** The most tools one simulated call asks for. */
export const maxToolsPerCall = 5

/** What the simulated runtime knows of a tool it may call. */
export interface SimulatedTool {
  readonly tool_uuid: string
  readonly name: string
  readonly trigger_phrases: ReadonlyArray<string>
  readonly parameters: ReadonlyArray<ToolParameter>
  readonly wait_message: string | null
}

/** The HTTP API tools (at most `maxToolsPerCall`, in the agent's order) with a non-blank trigger phrase. */
export const usableTools = (tools: ReadonlyArray<Tool>): ReadonlyArray<SimulatedTool> =>
  tools
    .flatMap((tool): ReadonlyArray<SimulatedTool> => {
      const definition = tool.definition
      if (definition.type !== "http_api") return []
      const phrases = (definition.config.trigger_phrases ?? []).filter((phrase) => plainWords(phrase) !== "")
      if (phrases.length === 0) return []
      return [
        {
          tool_uuid: tool.tool_uuid,
          name: tool.name,
          trigger_phrases: phrases,
          parameters: definition.config.parameters ?? [],
          wait_message: definition.config.wait_message ?? null
        }
      ]
    })
    .slice(0, maxToolsPerCall)

/** Lower case, every run of characters that are not letters or digits one space, trimmed. */
export const plainWords = (text: string): string =>
  text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim()

/** True when the line holds the phrase as whole words (case and punctuation aside). */
export const matches = (line: string, phrase: string): boolean => {
  const wanted = plainWords(phrase)
  return wanted !== "" && ` ${plainWords(line)} `.includes(` ${wanted} `)
}

/**
 * For each caller line, in order, the tools it triggers: those with a phrase in the line that no earlier
 * line triggered (a tool is called at most once per call).
 */
export const triggered = (
  callerLines: ReadonlyArray<string>,
  tools: ReadonlyArray<SimulatedTool>
): ReadonlyArray<ReadonlyArray<SimulatedTool>> => {
  const called = new Set<string>()
  return callerLines.map((line) =>
    tools.filter((tool) => {
      if (called.has(tool.tool_uuid)) return false
      const hit = tool.trigger_phrases.some((phrase) => matches(line, phrase))
      if (hit) called.add(tool.tool_uuid)
      return hit
    })
  )
}
