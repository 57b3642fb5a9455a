import { describe, expect, it } from "@effect/vitest"
import { FastCheck, Schema } from "effect"
import type { OrganizationId } from "../../src/organizations/Organization.js"
import type { Tool, ToolId } from "../../src/tools/Tool.js"
import { CreateToolRequest, withoutSecrets } from "../../src/tools/Tool.js"
import type { ToolDefinition } from "../../src/tools/ToolDefinition.js"
import * as ToolUpdate from "../../src/tools/ToolUpdate.js"

const decodeDefinition = (definition: unknown) =>
  Schema.decodeUnknownSync(CreateToolRequest)({ name: "t", definition }).definition

const integration = (config: Record<string, unknown>): ToolDefinition =>
  decodeDefinition({ type: "integration", config: { provider: "crm", ...config } })

const endCall = decodeDefinition({ type: "end_call", config: {} })
const http = decodeDefinition({ type: "http_api", config: { method: "GET", url: "https://example.com" } })

const tool = (definition: ToolDefinition, category: string = definition.type): Tool => ({
  id: 1 as ToolId,
  tool_uuid: "00000000-0000-4000-8000-000000000000",
  organization_id: 1 as OrganizationId,
  name: "Tool",
  description: null,
  category,
  icon: "globe",
  icon_color: "#3B82F6",
  status: "active",
  definition,
  created_at: new Date(0),
  updated_at: null,
  created_by: null
})

const apiKeyOf = (definition: ToolDefinition | undefined) =>
  definition?.type === "integration" ? definition.config.api_key : "not an integration"

describe("ToolUpdate", () => {
  it("fills the documented defaults: timeout 5000 ms (also for null), required parameters", () => {
    expect(http.type === "http_api" && http.config.timeout_ms).toBe(5000)
    const explicitNull = decodeDefinition({
      type: "http_api",
      config: {
        method: "POST",
        url: "https://example.com",
        timeout_ms: null,
        parameters: [{ name: "q", type: "string", description: "query" }]
      }
    })
    const normalized = ToolUpdate.withStoredDefaults(explicitNull)
    expect(normalized.type === "http_api" && normalized.config.timeout_ms).toBe(5000)
    expect(normalized.type === "http_api" && normalized.config.parameters?.[0]?.required).toBe(true)
    expect(ToolUpdate.withStoredDefaults(integration({ api_key: "" }))).toEqual(
      integration({ api_key: null })
    )
    expect(ToolUpdate.withStoredDefaults(endCall)).toBe(endCall)
  })

  it("the category defaults to the definition's type", () => {
    expect(ToolUpdate.categoryFor(undefined, endCall)).toBe("end_call")
    expect(ToolUpdate.categoryFor("crm", endCall)).toBe("crm")
  })

  it("names the credential of an HTTP API definition only", () => {
    expect(ToolUpdate.credentialUuidOf(http)).toBeNull()
    const withCredential = decodeDefinition({
      type: "http_api",
      config: { method: "GET", url: "https://example.com", credential_uuid: "c-1" }
    })
    expect(ToolUpdate.credentialUuidOf(withCredential)).toBe("c-1")
    expect(ToolUpdate.credentialUuidOf(endCall)).toBeNull()
  })

  it("keeps the stored api_key when the new definition of the same provider omits it or sends null", () => {
    const current = tool(integration({ api_key: "k-1", action: "lookup" }))
    for (const sent of [{}, { api_key: null }]) {
      const patch = ToolUpdate.patch(current, { definition: integration({ ...sent, action: "search" }) })
      expect(apiKeyOf(patch.definition)).toBe("k-1")
    }
    expect(
      apiKeyOf(ToolUpdate.patch(current, { definition: integration({ api_key: "k-2" }) }).definition)
    ).toBe("k-2")
    expect(
      apiKeyOf(ToolUpdate.patch(current, { definition: integration({ api_key: "" }) }).definition)
    ).toBeNull()
    const otherProvider = decodeDefinition({ type: "integration", config: { provider: "weather" } })
    expect(apiKeyOf(ToolUpdate.patch(current, { definition: otherProvider }).definition)).toBeUndefined()
  })

  it("a defaulted category follows a new definition type; an explicit one stays", () => {
    expect(ToolUpdate.patch(tool(endCall), { definition: http })).toMatchObject({ category: "http_api" })
    expect(ToolUpdate.patch(tool(endCall, "support"), { definition: http }).category).toBeUndefined()
    expect(ToolUpdate.patch(tool(endCall), { definition: http, category: "crm" }).category).toBe("crm")
    expect(ToolUpdate.patch(tool(endCall), { category: "crm" })).toEqual({ category: "crm" })
  })

  it.prop(
    "an update touches only the fields it names",
    {
      name: FastCheck.option(FastCheck.string({ minLength: 1 }), { nil: undefined }),
      description: FastCheck.option(FastCheck.option(FastCheck.string()), { nil: undefined }),
      icon: FastCheck.option(FastCheck.option(FastCheck.string({ maxLength: 50 })), { nil: undefined })
    },
    ({ name, description, icon }) => {
      const changes = {
        ...(name === undefined ? {} : { name }),
        ...(description === undefined ? {} : { description }),
        ...(icon === undefined ? {} : { icon })
      }
      expect(ToolUpdate.patch(tool(endCall), changes)).toEqual(changes)
    }
  )

  it.prop(
    "a stored api_key survives any update that sends no key of its own",
    [FastCheck.string({ minLength: 1 }), FastCheck.option(FastCheck.string(), { nil: undefined })],
    ([key, action]) => {
      const current = tool(integration({ api_key: key }))
      const next = integration(action === undefined ? {} : { action })
      expect(apiKeyOf(ToolUpdate.patch(current, { definition: next }).definition)).toBe(key)
    }
  )
})

describe("credential headers of HTTP API tools", () => {
  const httpTool = (headers: Record<string, string>) =>
    ({
      definition: {
        schema_version: 1,
        type: "http_api",
        config: { method: "GET", url: "https://crm.example/api", headers, timeout_ms: 5000 }
      }
    }) as unknown as Tool

  it("are masked when shown and kept when the mask is sent back", () => {
    const stored = httpTool({ Authorization: "Bearer s3cret", "X-Api-Key": "k", Accept: "application/json" })
    const shown = withoutSecrets(stored)
    expect((shown.definition.config as { headers: Record<string, string> }).headers).toEqual({
      Authorization: "****",
      "X-Api-Key": "****",
      Accept: "application/json"
    })
    const updated = ToolUpdate.patch(stored, { definition: shown.definition } as never)
    expect((updated.definition!.config as { headers: Record<string, string> }).headers).toEqual({
      Authorization: "Bearer s3cret",
      "X-Api-Key": "k",
      Accept: "application/json"
    })
    const replaced = ToolUpdate.patch(stored, {
      definition: httpTool({ Authorization: "Bearer new" }).definition
    } as never)
    expect((replaced.definition!.config as { headers: Record<string, string> }).headers).toEqual({
      Authorization: "Bearer new"
    })
  })
})
