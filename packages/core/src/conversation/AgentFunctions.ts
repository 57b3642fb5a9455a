import type { FunctionTool, JsonSchema } from "../language-model/LanguageModel.js"
import * as FunctionNames from "../language-model/FunctionNames.js"
import type { Tool } from "../tools/Tool.js"
import type { ToolParameter } from "../tools/ToolDefinition.js"

/**
 * An agent's tools as the functions a model is offered: one per tool, named by `FunctionNames`, its
 * parameters the tool's as JSON Schema properties (a transfer also takes the number the caller asked for).
 */

/** A function offered for a tool, and the tool it runs. */
export interface AgentFunction {
  readonly function: FunctionTool
  readonly tool: Tool
  /** What a caller says to ask for it (an HTTP API tool's `trigger_phrases`). */
  readonly triggers: ReadonlyArray<string>
}

/** A tool parameter as a JSON Schema property. */
const property = (parameter: ToolParameter): JsonSchema => ({
  type: parameter.type,
  ...(parameter.description.trim() === "" ? {} : { description: parameter.description })
})

/** `{type: "object", properties, required}` of the parameters. */
const objectOf = (
  parameters: ReadonlyArray<ToolParameter>,
  extra: Record<string, JsonSchema> = {}
): JsonSchema => ({
  type: "object",
  properties: { ...Object.fromEntries(parameters.map((p) => [p.name, property(p)])), ...extra },
  required: parameters.filter((p) => p.required).map((p) => p.name)
})

/** What the function is for, as the model reads it: the tool's description, or what its type does. */
const describe = (tool: Tool, triggers: ReadonlyArray<string>): string => {
  const own = tool.description?.trim() ?? ""
  const definition = tool.definition
  const purpose =
    own !== ""
      ? own
      : definition.type === "end_call"
        ? "Ends the conversation. Call it once the conversation is over, after saying goodbye."
        : definition.type === "transfer"
          ? "Transfers the caller to a person."
          : `Runs the tool "${tool.name}".`
  return triggers.length === 0
    ? purpose
    : `${purpose} Use it when the caller says: ${triggers.map((t) => `"${t}"`).join(", ")}.`
}

/** The parameters of a tool's function. */
const parametersOf = (tool: Tool): JsonSchema => {
  const definition = tool.definition
  switch (definition.type) {
    case "http_api":
    case "integration":
      return objectOf(definition.config.parameters ?? [])
    case "transfer":
      return objectOf(definition.config.parameters ?? [], {
        destination_number: {
          type: "string",
          description: "The number to transfer to, when the caller asked for one of the agent's numbers"
        }
      })
    case "end_call":
      return objectOf([])
  }
}

/** The trigger phrases of a tool (HTTP API tools have them), blank ones left out. */
const triggersOf = (tool: Tool): ReadonlyArray<string> =>
  tool.definition.type === "http_api"
    ? (tool.definition.config.trigger_phrases ?? []).filter((phrase) => phrase.trim() !== "")
    : []

/** The functions of the tools, in order, with distinct names. */
export const of = (tools: ReadonlyArray<Tool>): ReadonlyArray<AgentFunction> => {
  const names = FunctionNames.assign(tools.map((tool) => tool.name))
  return tools.map((tool, i) => {
    const triggers = triggersOf(tool)
    return {
      function: { name: names[i]!, description: describe(tool, triggers), parameters: parametersOf(tool) },
      tool,
      triggers
    }
  })
}
