import { describe, expect, it } from "@effect/vitest"
import { FastCheck } from "effect"
import * as AgentFunctions from "../../src/conversation/AgentFunctions.js"
import * as FunctionNames from "../../src/language-model/FunctionNames.js"
import type { ToolDefinition, ToolParameter } from "../../src/tools/ToolDefinition.js"
import { endCall, httpApi, tool } from "./AgentFixtures.js"

const parameter = (
  name: string,
  type: ToolParameter["type"],
  description = "",
  required = true
): ToolParameter => ({
  name,
  type,
  description,
  required
})

const anyParameter: FastCheck.Arbitrary<ToolParameter> = FastCheck.record({
  name: FastCheck.stringMatching(/^[a-z][a-z_]{0,15}$/),
  type: FastCheck.constantFrom("string" as const, "number" as const, "boolean" as const),
  description: FastCheck.string({ maxLength: 20 }),
  required: FastCheck.boolean()
})
const parameters = FastCheck.uniqueArray(anyParameter, { selector: (p) => p.name, maxLength: 6 })
const anyDefinition: FastCheck.Arbitrary<ToolDefinition> = FastCheck.oneof(
  FastCheck.record({
    parameters,
    trigger_phrases: FastCheck.array(FastCheck.string({ maxLength: 12 }), { maxLength: 3 })
  }).map((config) => httpApi(config)),
  FastCheck.constant(endCall),
  parameters.map((ps): ToolDefinition => ({
    schema_version: 1,
    type: "transfer",
    config: { destination_number: null, parameters: ps }
  })),
  parameters.map((ps): ToolDefinition => ({
    schema_version: 1,
    type: "integration",
    config: { provider: "weather", parameters: ps }
  }))
)
const anyTool = FastCheck.record({
  name: FastCheck.string({ maxLength: 30 }),
  description: FastCheck.option(FastCheck.string({ maxLength: 30 })),
  definition: anyDefinition
}).map(({ definition, description, name }) => tool(name, definition, { description }))

describe("AgentFunctions.of", () => {
  it("offers an HTTP API tool with its parameters as properties, the required ones listed", () => {
    const lookup = tool(
      "Check order",
      httpApi({
        parameters: [
          parameter("order_id", "string", "The order's number"),
          parameter("count", "number", "  ", true),
          parameter("urgent", "boolean", "Whether it is urgent", false)
        ],
        trigger_phrases: ["where is my order", "  ", "track my parcel"]
      }),
      { description: "Finds an order." }
    )
    const [offered] = AgentFunctions.of([lookup])
    expect(offered).toEqual({
      function: {
        name: "check_order",
        description: 'Finds an order. Use it when the caller says: "where is my order", "track my parcel".',
        parameters: {
          type: "object",
          properties: {
            order_id: { type: "string", description: "The order's number" },
            count: { type: "number" },
            urgent: { type: "boolean", description: "Whether it is urgent" }
          },
          required: ["order_id", "count"]
        }
      },
      tool: lookup,
      triggers: ["where is my order", "track my parcel"]
    })
  })

  it("lets a transfer also take the number the caller asked for, never requiring it", () => {
    const transfer = tool("Transfer", {
      schema_version: 1,
      type: "transfer",
      config: { destination_number: null, parameters: [parameter("reason", "string", "Why")] }
    })
    const [offered] = AgentFunctions.of([transfer])
    expect(offered!.function.parameters).toEqual({
      type: "object",
      properties: {
        reason: { type: "string", description: "Why" },
        destination_number: {
          type: "string",
          description: "The number to transfer to, when the caller asked for one of the agent's numbers"
        }
      },
      required: ["reason"]
    })
    expect(offered!.function.description).toBe("Transfers the caller to a person.")
    expect(offered!.triggers).toEqual([])
  })

  it("offers an end-call tool without parameters, saying when to call it", () => {
    const [offered] = AgentFunctions.of([tool("End call", endCall)])
    expect(offered!.function).toEqual({
      name: "end_call",
      description: "Ends the conversation. Call it once the conversation is over, after saying goodbye.",
      parameters: { type: "object", properties: {}, required: [] }
    })
  })

  it("offers an integration with its parameters, described by its own description or its name", () => {
    const weather = tool("Weather", {
      schema_version: 1,
      type: "integration",
      config: { provider: "weather", parameters: [parameter("city", "string", "The city")] }
    })
    const [offered] = AgentFunctions.of([weather])
    expect(offered!.function).toEqual({
      name: "weather",
      description: 'Runs the tool "Weather".',
      parameters: {
        type: "object",
        properties: { city: { type: "string", description: "The city" } },
        required: ["city"]
      }
    })
    const bare = tool(
      "Bare",
      { schema_version: 1, type: "integration", config: { provider: "crm" } },
      { description: "  " }
    )
    expect(AgentFunctions.of([bare])[0]!.function.parameters).toEqual({
      type: "object",
      properties: {},
      required: []
    })
    expect(AgentFunctions.of([bare])[0]!.function.description).toBe('Runs the tool "Bare".')
  })

  it("names the functions with FunctionNames, in the tools' order", () => {
    const tools = [tool("Check order", httpApi()), tool("check-order", httpApi()), tool("", endCall)]
    expect(AgentFunctions.of(tools).map((f) => f.function.name)).toEqual([
      "check_order",
      "check_order_2",
      "tool"
    ])
  })

  it.prop(
    "one function per tool, in order, named as FunctionNames names them, its required parameters among its properties",
    [FastCheck.array(anyTool, { maxLength: 8 })],
    ([tools]) => {
      const functions = AgentFunctions.of(tools)
      expect(functions.map((f) => f.tool)).toEqual(tools)
      expect(functions.map((f) => f.function.name)).toEqual(FunctionNames.assign(tools.map((t) => t.name)))
      for (const { function: offered, tool: of, triggers } of functions) {
        const { properties, required, type } = offered.parameters as {
          type: string
          properties: Record<string, { type: string }>
          required: Array<string>
        }
        expect(type).toBe("object")
        const own = "parameters" in of.definition.config ? (of.definition.config.parameters ?? []) : []
        expect(required).toEqual(own.filter((p) => p.required).map((p) => p.name))
        for (const name of required) expect(properties).toHaveProperty(name)
        for (const p of own) expect(properties[p.name]!.type).toBe(p.type)
        expect(Object.hasOwn(properties, "destination_number")).toBe(
          of.definition.type === "transfer" || own.some((p) => p.name === "destination_number")
        )
        expect(triggers.every((t) => t.trim() !== "")).toBe(true)
        for (const t of triggers) expect(offered.description).toContain(`"${t}"`)
        expect(offered.description.trim()).not.toBe("")
      }
    }
  )
})
