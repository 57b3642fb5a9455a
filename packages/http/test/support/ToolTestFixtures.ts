/** The tool-test tests' tool definitions and requests. */
import type { HttpClient } from "@effect/platform"
import { expect } from "@effect/vitest"
import { Effect } from "effect"
import { json, send } from "./TestServer.js"

export type Body = Record<string, any>

export const createTool = (client: HttpClient.HttpClient, definition: unknown) =>
  Effect.map(send(client, json("POST", "/api/v1/tools", { name: "Tool", definition })), (created) => {
    expect(created.status, created.text).toBe(200)
    return (created.body as Body).tool_uuid as string
  })

export const testTool = (client: HttpClient.HttpClient, toolUuid: string, body: unknown = {}) =>
  send(client, json("POST", `/api/v1/tools/${toolUuid}/test`, body))

export const httpApi = (config: Record<string, unknown>) => ({ type: "http_api", config })
