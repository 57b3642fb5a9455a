import { describe, expect, it } from "@effect/vitest"
import { ApiError } from "../../src/api/ApiErrors.js"
import * as Client from "../../src/api/Client.js"

/** A fetch that records what it was asked and answers what the test says. */
const fakeFetch = (answer: () => Response) => {
  const asked: Array<{ url: string; init: RequestInit }> = []
  const fetch = (async (url: string, init: RequestInit) => {
    asked.push({ url, init })
    return answer()
  }) as unknown as typeof globalThis.fetch
  return { fetch, asked }
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } })

describe("the console's API client", () => {
  it("fills path parameters (encoded), leaves out empty query values, and keeps a mount prefix", () => {
    expect(Client.urlOf("/", "/api/v1/agents/{agent_id}", { agent_id: "agent a/b" }, undefined)).toBe(
      "/api/v1/agents/agent%20a%2Fb"
    )
    expect(
      Client.urlOf("/voice/", "/api/v1/agents", undefined, { page: 2, status: undefined, limit: "" })
    ).toBe("/voice/api/v1/agents?page=2")
    expect(() => Client.urlOf("/", "/api/v1/agents/{agent_id}", {}, undefined)).toThrow(/agent_id/)
  })

  it("sends the key and JSON, and answers the JSON", async () => {
    const { fetch, asked } = fakeFetch(() => json(200, { items: [], total_count: 0 }))
    const api = Client.make({ root: "/", apiKey: () => "vap_key", fetch })
    const page = await api.get("/api/v1/agents", { query: { limit: 1 } })
    expect(page).toEqual({ items: [], total_count: 0 })
    await api.patch("/api/v1/agents/{agent_id}", { path: { agent_id: "agent_x" }, body: { name: "Ada" } })
    expect(
      asked.map(({ url, init }) => [
        init.method,
        url,
        (init.headers as Record<string, string>)["x-api-key"],
        init.body
      ])
    ).toEqual([
      ["GET", "/api/v1/agents?limit=1", "vap_key", null],
      ["PATCH", "/api/v1/agents/agent_x", "vap_key", '{"name":"Ada"}']
    ])
    expect(asked.every(({ init }) => init.credentials === "omit")).toBe(true)
  })

  it("fails a request whose answer cannot be read, never answering it as empty", async () => {
    /** An answer whose body breaks off as it is read (the page reloading under it, the connection lost). */
    const breaking = (status: number) => () =>
      new Response(
        new ReadableStream({ start: (controller) => controller.error(new TypeError("network error")) }),
        { status, headers: { "content-type": "application/json" } }
      )
    const answering = (status: number) =>
      Client.make({ root: "/", apiKey: () => "vap_key", fetch: fakeFetch(breaking(status)).fetch })
    const error = await answering(200)
      .get("/api/v1/agents", {})
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ApiError)
    expect(error).toMatchObject({ status: 0 })
    // a refusal whose body breaks off keeps its status and the status's own message
    const refused = await answering(404)
      .get("/api/v1/agents", {})
      .catch((e: unknown) => e)
    expect(refused).toMatchObject({ status: 404 })
  })

  it("turns the API's refusals into ApiErrors with its reason; a 401 is reported as a refused key", async () => {
    const refused: Array<string> = []
    const { fetch } = fakeFetch(() => json(401, { detail: "Invalid API key" }))
    const api = Client.make({
      root: "/",
      apiKey: () => "vap_bad",
      fetch,
      onUnauthorized: (m) => refused.push(m)
    })
    const error = await api.get("/api/v1/agents", {}).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ApiError)
    expect(error).toMatchObject({ status: 401, message: "Invalid API key" })
    expect(refused).toEqual(["Invalid API key"])
  })

  it("says the server could not be reached when fetch fails", async () => {
    const api = Client.make({
      root: "/",
      apiKey: () => undefined,
      fetch: (async () => {
        throw new TypeError("Failed to fetch")
      }) as unknown as typeof fetch
    })
    await expect(api.get("/api/v1/agents", {})).rejects.toMatchObject({
      status: 0,
      message: /could not be reached/
    })
  })

  it("hands a streamed reply's events over as they come, and a JSON answer as one `done`", async () => {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('event: delta\ndata: {"text":"Hel'))
        controller.enqueue(new TextEncoder().encode('lo"}\n\nevent: done\ndata: {}\n\n'))
        controller.close()
      }
    })
    const { fetch, asked } = fakeFetch(
      () => new Response(body, { headers: { "content-type": "text/event-stream" } })
    )
    const api = Client.make({ root: "/", apiKey: () => "vap_key", fetch })
    const events: Array<string> = []
    const path = { agent_id: "agent_x", run_id: 7 }
    await api.stream(
      "/api/v1/agents/{agent_id}/conversations/{run_id}/messages",
      { path, body: { text: "Hi" } },
      (e) => events.push(`${e.event} ${e.data}`)
    )
    expect(events).toEqual(['delta {"text":"Hello"}', "done {}"])
    expect((asked[0]!.init.headers as Record<string, string>)["accept"]).toBe("text/event-stream")

    const replayed = Client.make({
      root: "/",
      apiKey: () => "k",
      fetch: fakeFetch(() => json(200, { ended: true })).fetch
    })
    const whole: Array<string> = []
    await replayed.stream(
      "/api/v1/agents/{agent_id}/conversations/{run_id}/messages",
      { path, body: {} },
      (e) => whole.push(`${e.event} ${e.data}`)
    )
    expect(whole).toEqual(['done {"ended":true}'])
  })

  it("fetches a file's bytes from a signed address on this origin, without the key, and answers errors as for JSON", async () => {
    const { fetch, asked } = fakeFetch(
      () =>
        new Response(new Uint8Array([82, 73, 70, 70]), {
          status: 200,
          headers: { "content-type": "audio/wav" }
        })
    )
    const api = Client.make({ root: "/voice/", apiKey: () => "vap_key", fetch })
    const bytes = await api.blob("/voice/api/v1/files/download?key=k&signature=s", { accept: "audio/wav" })
    expect(bytes.type).toBe("audio/wav")
    expect(new Uint8Array(await bytes.arrayBuffer())).toEqual(new Uint8Array([82, 73, 70, 70]))
    expect(asked[0]!.url).toBe("/voice/api/v1/files/download?key=k&signature=s")
    expect((asked[0]!.init.headers as Record<string, string>)["x-api-key"]).toBeUndefined()
    expect((asked[0]!.init.headers as Record<string, string>)["accept"]).toBe("audio/wav")
    const missing = Client.make({
      root: "/",
      apiKey: () => "vap_key",
      fetch: fakeFetch(() => json(404, { detail: "The file is no longer available" })).fetch
    })
    await expect(missing.blob("/api/v1/files/download")).rejects.toMatchObject({ status: 404 })
  })
})
