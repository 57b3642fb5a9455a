// What every host example must do: its own routes and body parser work, and the API answers under /voice.
import { expect } from "vitest"

export const adminToken = "example-admin-token-0123456789"

const json = async (response: Response) => ({ status: response.status, body: (await response.json()) as any })

export const checkHost = async (url: string) => {
  // the host's own routes, with the host's own JSON body parser
  expect(await json(await fetch(`${url}/hello`))).toEqual({ status: 200, body: { hello: "from the host" } })
  const echoed = await fetch(`${url}/echo`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ a: 1 })
  })
  expect(await json(echoed)).toEqual({ status: 200, body: { received: { a: 1 } } })

  // the API under /voice: health, an organization through the operator API, an agent with its key
  expect(await json(await fetch(`${url}/voice/health`))).toEqual({ status: 200, body: { status: "ok" } })
  const organization = await json(
    await fetch(`${url}/voice/admin/v1/organizations`, {
      method: "POST",
      headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "Embedded" })
    })
  )
  expect(organization.status).toBe(200)
  const apiKey = organization.body.api_key as string
  const agent = await json(
    await fetch(`${url}/voice/api/v1/agents/from-script`, {
      method: "POST",
      headers: { "x-api-key": apiKey, "content-type": "application/json" },
      body: JSON.stringify({ agent: { greeting: "Hello from the host" } })
    })
  )
  expect(agent.status).toBe(200)
  expect(agent.body.workflow_definition.first_message).toBe("Hello from the host")
  const list = await json(
    await fetch(`${url}/voice/api/v1/agents?page=1&limit=5`, { headers: { "x-api-key": apiKey } })
  )
  expect(list).toMatchObject({ status: 200, body: { total_count: 1, page: 1, limit: 5 } })
  // the API's own errors keep their shape under the sub-path
  expect(await json(await fetch(`${url}/voice/api/v1/agents`))).toEqual({
    status: 401,
    body: { detail: "Invalid API key" }
  })
  // an address outside both is the host's
  expect((await fetch(`${url}/nowhere`)).status).toBe(404)
}
