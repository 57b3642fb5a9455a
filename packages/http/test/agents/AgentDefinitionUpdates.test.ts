import type { HttpClient } from "@effect/platform"
import { HttpClientRequest } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { json, organization, rawClient, send, TestServer, TestServerOverSql } from "../support/TestServer.js"

type Body = Record<string, any>

const newAgent = (client: HttpClient.HttpClient) =>
  Effect.map(
    send(
      client,
      json("POST", "/api/v1/agents/from-script", { agent: { greeting: "Hello {{initial_context.name}}" } })
    ),
    (created) => {
      expect(created.status, created.text).toBe(200)
      return created.body as Body
    }
  )

const newTool = (client: HttpClient.HttpClient, name = "Lookup") =>
  Effect.map(
    send(
      client,
      json("POST", "/api/v1/tools", {
        name,
        definition: { type: "http_api", config: { method: "GET", url: "https://example.com/lookup" } }
      })
    ),
    (created) => {
      expect(created.status, created.text).toBe(200)
      return (created.body as Body).tool_uuid as string
    }
  )

const patch = (client: HttpClient.HttpClient, agentId: string, body: unknown) =>
  send(client, json("PATCH", `/api/v1/agents/${agentId}`, body))

const versions = (client: HttpClient.HttpClient, agentId: string) =>
  Effect.map(
    send(client, HttpClientRequest.get(`/api/v1/agents/${agentId}/definitions?limit=100`)),
    (page) => (page.body as Body).items as Array<Body>
  )

describe.each([
  ["in-memory", TestServer],
  ["SQL (embedded PostgreSQL)", TestServerOverSql]
] as const)("PATCH /agents/{agent_id} with definition fields, %s storage", (_, server) => {
  it.effect("each change is a new version: current_definition_id moves and the versions list it", () =>
    Effect.gen(function* () {
      const { apiKey } = yield* organization()
      const client = yield* rawClient(apiKey)
      const agent = yield* newAgent(client)
      const toolA = yield* newTool(client, "A")
      const toolB = yield* newTool(client, "B")

      const first = yield* patch(client, agent.public_id, {
        system_prompt: "You sell apples.",
        first_message: "Hi, {{initial_context.name}}!",
        tools: [toolA, toolB, toolA],
        transfer_numbers: ["+48 500 000 111", "+48500000111", "+1 (202) 555-0143"]
      })
      expect(first.status, first.text).toBe(200)
      const v2 = first.body as Body
      expect(v2.current_definition_id).not.toBe(agent.current_definition_id)
      expect(v2.workflow_definition).toMatchObject({
        system_prompt: "You sell apples.",
        first_message: "Hi, {{initial_context.name}}!",
        tools: [
          { type: "tool", tool_uuid: toolA },
          { type: "tool", tool_uuid: toolB }
        ],
        transfer_numbers: ["+48500000111", "+12025550143"]
      })
      // the configuration shows the numbers too, as it always has
      expect(v2.workflow_configurations.transfer_numbers).toEqual(["+48500000111", "+12025550143"])

      // a change of one field carries the others over
      const second = yield* patch(client, agent.public_id, { tools: [toolB] })
      expect(second.status, second.text).toBe(200)
      const v3 = second.body as Body
      expect(v3.workflow_definition).toMatchObject({
        system_prompt: "You sell apples.",
        tools: [{ type: "tool", tool_uuid: toolB }],
        transfer_numbers: ["+48500000111", "+12025550143"]
      })

      // transfer numbers set through the configuration are a new version as well
      const third = yield* patch(client, agent.public_id, {
        workflow_configurations: { transfer_numbers: ["+48500000222"] }
      })
      expect(third.status, third.text).toBe(200)
      expect((third.body as Body).workflow_definition.transfer_numbers).toEqual(["+48500000222"])

      // a change of the agent's own fields only makes no version
      const renamed = yield* patch(client, agent.public_id, { name: "Renamed" })
      expect((renamed.body as Body).current_definition_id).toBe((third.body as Body).current_definition_id)

      const listed = yield* versions(client, agent.public_id)
      expect(listed.map((version) => version.version)).toEqual([4, 3, 2, 1])
      expect(listed[0]!.id).toBe((third.body as Body).current_definition_id)
      expect(listed[2]!.workflow_definition.first_message).toBe("Hi, {{initial_context.name}}!")
      expect(listed[3]!.workflow_definition.first_message).toBe("Hello {{initial_context.name}}")
    }).pipe(Effect.provide(server))
  )

  it.effect("simultaneous changes of different fields both land, each in a version of its own", () =>
    Effect.gen(function* () {
      const { apiKey } = yield* organization()
      const client = yield* rawClient(apiKey)
      const agent = yield* newAgent(client)
      const toolA = yield* newTool(client)
      const answers = yield* Effect.all(
        [
          patch(client, agent.public_id, { system_prompt: "Prompt from the first" }),
          patch(client, agent.public_id, { tools: [toolA] }),
          patch(client, agent.public_id, { transfer_numbers: ["+48500000111"] })
        ],
        { concurrency: "unbounded" }
      )
      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200])
      const current = (yield* send(client, HttpClientRequest.get(`/api/v1/agents/${agent.public_id}`)))
        .body as Body
      expect(current.workflow_definition).toMatchObject({
        system_prompt: "Prompt from the first",
        tools: [{ type: "tool", tool_uuid: toolA }],
        transfer_numbers: ["+48500000111"]
      })
      expect((yield* versions(client, agent.public_id)).map((version) => version.version)).toEqual([
        4, 3, 2, 1
      ])
    }).pipe(Effect.provide(server))
  )

  it.effect("an accepted improvement appends to the current version's prompt", () =>
    Effect.gen(function* () {
      const { apiKey } = yield* organization()
      const client = yield* rawClient(apiKey)
      const agent = yield* newAgent(client)
      yield* patch(client, agent.public_id, { system_prompt: "Be brief." })
      const suggestion = yield* send(
        client,
        json("POST", `/api/v1/agents/${agent.public_id}/improvements`, { text: "Say thank you." })
      )
      expect(suggestion.status, suggestion.text).toBe(200)
      const accepted = yield* send(
        client,
        json(
          "POST",
          `/api/v1/agents/${agent.public_id}/improvements/${(suggestion.body as Body).id}/accept`,
          {}
        )
      )
      expect(accepted.status, accepted.text).toBe(200)
      const current = (yield* send(client, HttpClientRequest.get(`/api/v1/agents/${agent.public_id}`)))
        .body as Body
      expect(current.workflow_definition.system_prompt).toBe("Be brief.\n\nSay thank you.")
      expect((yield* versions(client, agent.public_id)).length).toBe(3)
    }).pipe(Effect.provide(server))
  )

  it.effect("unknown or another organization's tool is 404, an archived one 409, and nothing changes", () =>
    Effect.gen(function* () {
      const mine = yield* organization()
      const theirs = yield* organization()
      const client = yield* rawClient(mine.apiKey)
      const other = yield* rawClient(theirs.apiKey)
      const agent = yield* newAgent(client)
      const foreign = yield* newTool(other)
      const archived = yield* newTool(client)
      expect((yield* send(client, HttpClientRequest.del(`/api/v1/tools/${archived}`))).status).toBe(200)

      const unknown = yield* patch(client, agent.public_id, {
        tools: ["00000000-0000-4000-8000-000000000000"]
      })
      expect(unknown.status).toBe(404)
      expect(unknown.body).toEqual({ detail: "Tool 00000000-0000-4000-8000-000000000000 not found" })
      const crossTenant = yield* patch(client, agent.public_id, { name: "X", tools: [foreign] })
      expect(crossTenant.status).toBe(404)
      const gone = yield* patch(client, agent.public_id, { tools: [archived] })
      expect(gone.status).toBe(409)
      expect((gone.body as Body).detail).toMatch(/^tool_archived: /)

      const after = (yield* send(client, HttpClientRequest.get(`/api/v1/agents/${agent.public_id}`)))
        .body as Body
      expect(after.name).toBe(agent.name)
      expect(after.current_definition_id).toBe(agent.current_definition_id)
      expect((yield* versions(client, agent.public_id)).length).toBe(1)
      // another organization's agent is not found either
      expect((yield* patch(other, agent.public_id, { system_prompt: "x" })).status).toBe(404)
    }).pipe(Effect.provide(server))
  )

  it.effect("invalid numbers and oversized fields are 422 at their field, and nothing changes", () =>
    Effect.gen(function* () {
      const { apiKey } = yield* organization()
      const client = yield* rawClient(apiKey)
      const agent = yield* newAgent(client)
      const invalid = yield* patch(client, agent.public_id, { transfer_numbers: ["+48500000111", "+48 12"] })
      expect(invalid.status).toBe(422)
      expect(invalid.body).toMatchObject({ detail: [{ loc: ["body", "transfer_numbers", 1] }] })
      // a number of the right shape that is no phone number, given in the configuration
      const configured = yield* patch(client, agent.public_id, {
        workflow_configurations: { transfer_numbers: ["+10000000000"] }
      })
      expect(configured.status).toBe(422)
      expect(configured.body).toMatchObject({
        detail: [{ loc: ["body", "workflow_configurations", "transfer_numbers", 0] }]
      })
      const cases: Array<[Body, Array<string | number>]> = [
        [{ system_prompt: "x".repeat(100_001) }, ["body", "system_prompt"]],
        [{ system_prompt: "" }, ["body", "system_prompt"]],
        [{ first_message: "x".repeat(5_001) }, ["body", "first_message"]],
        [{ tools: Array.from({ length: 51 }, (_, i) => `tool-${i}`) }, ["body", "tools"]],
        [{ tools: [42] }, ["body", "tools", 0]],
        [{ transfer_numbers: Array.from({ length: 21 }, () => "+48500000111") }, ["body", "transfer_numbers"]]
      ]
      for (const [body, loc] of cases) {
        const refused = yield* patch(client, agent.public_id, body)
        expect(refused.status, JSON.stringify(body).slice(0, 80)).toBe(422)
        expect((refused.body as Body).detail[0].loc).toEqual(loc)
      }
      expect((yield* versions(client, agent.public_id)).length).toBe(1)
    }).pipe(Effect.provide(server))
  )
})
