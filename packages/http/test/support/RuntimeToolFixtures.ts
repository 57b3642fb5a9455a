import type { HttpClient } from "@effect/platform"
import { HttpClientRequest } from "@effect/platform"
import { expect } from "@effect/vitest"
import { Effect } from "effect"
import { json, runtimeToken, send } from "./TestServer.js"

/** Requests and fixtures of the runtime's tool tests: an agent with tools and a run, the runtime's calls. */

export type Body = Record<string, any>

export const secret = "sk-live-0123456789abcdef"

export const created = (response: { status: number; text: string; body: unknown }) => {
  expect(response.status, response.text).toBe(200)
  return response.body as Body
}

/**
 * Requests as the voice runtime sends them: with its own token (the organization's key the client also
 * carries is not what lets it in: without the token it is 401).
 */
export const runtime = (client: HttpClient.HttpClient) => ({
  get: (url: string) =>
    send(client, HttpClientRequest.get(url).pipe(HttpClientRequest.bearerToken(runtimeToken))),
  post: (url: string, body: unknown) =>
    send(client, json("POST", url, body).pipe(HttpClientRequest.bearerToken(runtimeToken)))
})

/** An organization with an agent carrying the given tools and numbers, and a chat run placed with it. */
export const agentWithRun = (
  client: HttpClient.HttpClient,
  tools: ReadonlyArray<string>,
  numbers: ReadonlyArray<string>,
  initial_context: Record<string, unknown> = { name: "Ada", shop: "north" }
) =>
  Effect.gen(function* () {
    const agent = created(
      yield* send(
        client,
        json("POST", "/api/v1/agents/from-script", { agent: { greeting: "Hi {{initial_context.name}}" } })
      )
    )
    created(
      yield* send(
        client,
        json("PATCH", `/api/v1/agents/${agent.public_id}`, {
          system_prompt: "You help {{initial_context.name}}.",
          tools,
          transfer_numbers: numbers
        })
      )
    )
    const run = created(
      yield* send(
        client,
        json("POST", `/api/v1/agents/${agent.public_id}/conversations`, {
          mode: "chat",
          initial_context
        })
      )
    )
    return { agent, runId: run.workflow_run_id as number }
  })

export const tool = (client: HttpClient.HttpClient, name: string, definition: unknown) =>
  Effect.map(
    send(client, json("POST", "/api/v1/tools", { name, definition })),
    (response) => created(response).tool_uuid as string
  )

/** The organization's "Shop key" credential (`X-Shop-Key: secret`); answers its uuid. */
export const shopKey = (client: HttpClient.HttpClient) =>
  Effect.map(
    send(
      client,
      json("POST", "/api/v1/credentials", {
        name: "Shop key",
        kind: "api_key_header",
        header_name: "X-Shop-Key",
        secret
      })
    ),
    (response) => created(response).credential_uuid as string
  )
