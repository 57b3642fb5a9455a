import { describe, expect, it } from "@effect/vitest"
import { bodyOf, draftOf, emptyDraft, headersOf, type Tool } from "../../src/screens/tools/ToolDraft.js"
import { jsonObjectOf, testBodyOf } from "../../src/screens/tools/ToolTestRequest.js"

const tool = (definition: Tool["definition"]): Tool => ({
  id: 1,
  tool_uuid: "t-1",
  name: "Order status",
  description: null,
  category: definition.type,
  icon: null,
  icon_color: null,
  status: "active",
  definition,
  created_at: "2026-11-27T12:00:00.000Z",
  updated_at: null,
  created_by: null
})

describe("a tool's form and the API's body", () => {
  it("makes an HTTP API tool's definition from the fields, lines and headers parsed", () => {
    const body = bodyOf({
      ...emptyDraft,
      name: " Order status ",
      url: " https://shop.example/orders/{{order_id}} ",
      headers: "X-Shop: main\n\nAccept: application/json",
      parameters: [
        { key: 0, name: "order_id", type: "string", description: "The order", required: true },
        { key: 1, name: " ", type: "number", description: "", required: false }
      ],
      timeoutMs: "2500",
      responseFields: "order.status\n  \norder.eta",
      triggerPhrases: "where is my order"
    })
    expect(body).toEqual({
      name: "Order status",
      description: null,
      definition: {
        type: "http_api",
        config: {
          method: "GET",
          url: "https://shop.example/orders/{{order_id}}",
          headers: { "X-Shop": "main", Accept: "application/json" },
          credential_uuid: null,
          parameters: [{ name: "order_id", type: "string", description: "The order", required: true }],
          timeout_ms: 2500,
          response_fields: ["order.status", "order.eta"],
          error_message: null,
          wait_message: null,
          trigger_phrases: ["where is my order"]
        }
      }
    })
  })

  it("says what is wrong before sending: a name, a URL, a header line, a timeout, a repeated parameter", () => {
    expect(bodyOf(emptyDraft)).toBe("Give the tool a name.")
    expect(bodyOf({ ...emptyDraft, name: "T" })).toBe("Give the URL the tool calls.")
    const http = { ...emptyDraft, name: "T", url: "https://x.example" }
    expect(bodyOf({ ...http, headers: "ok: 1\nno colon here" })).toBe(
      "Headers, line 2: write it as Name: value."
    )
    expect(bodyOf({ ...http, timeoutMs: "30001" })).toMatch(/from 1 to 30000/)
    expect(bodyOf({ ...http, timeoutMs: "1.5" })).toMatch(/whole number/)
    const row = { key: 0, name: "a", type: "string" as const, description: "A", required: true }
    expect(bodyOf({ ...http, parameters: [row, { ...row, key: 1 }] })).toBe("The parameter a is given twice.")
    expect(bodyOf({ ...http, parameters: [{ ...row, description: " " }] })).toMatch(
      /Say what the parameter a/
    )
    expect(headersOf("Bad Name: x")).toMatch(/line 1/)
  })

  it("reads a tool back into the form, and the form's body is the same definition", () => {
    const definition = {
      schema_version: 1,
      type: "http_api" as const,
      config: {
        method: "POST" as const,
        url: "https://shop.example/orders",
        headers: { "X-Shop": "main" },
        credential_uuid: "c-1",
        parameters: [{ name: "id", type: "number" as const, description: "Id", required: false }],
        timeout_ms: null,
        response_fields: ["a.b"],
        error_message: "Sorry.",
        wait_message: null,
        trigger_phrases: []
      }
    }
    const draft = draftOf(tool(definition))!
    expect(draft).toMatchObject({ method: "POST", headers: "X-Shop: main", credentialUuid: "c-1" })
    const { schema_version: _, ...sent } = definition
    expect(bodyOf(draft)).toEqual({ name: "Order status", description: null, definition: sent })
    const end = tool({
      schema_version: 1,
      type: "end_call",
      config: { messageType: "custom", customMessage: "Bye" }
    })
    expect(bodyOf(draftOf(end)!)).toMatchObject({
      definition: { type: "end_call", config: { messageType: "custom", customMessage: "Bye" } }
    })
    expect(
      draftOf(tool({ schema_version: 1, type: "integration", config: { provider: "crm", parameters: null } }))
    ).toBeUndefined()
  })
})

describe("a tool's test request", () => {
  it("takes JSON objects only, and leaves the agent out when none is given", () => {
    expect(jsonObjectOf("", "Arguments")).toEqual({})
    expect(jsonObjectOf("{nope", "Arguments")).toMatch(/^Arguments is not JSON/)
    expect(jsonObjectOf("[1]", "Arguments")).toMatch(/^Arguments must be a JSON object/)
    expect(testBodyOf({ arguments: '{"a": 1}', initialContext: "", agentId: " " })).toEqual({
      arguments: { a: 1 },
      initial_context: {}
    })
    expect(testBodyOf({ arguments: "{}", initialContext: "null", agentId: "agent_x" })).toMatch(
      /^Initial context must be/
    )
    expect(testBodyOf({ arguments: "{}", initialContext: "{}", agentId: "agent_x" })).toMatchObject({
      agent_id: "agent_x"
    })
  })
})
