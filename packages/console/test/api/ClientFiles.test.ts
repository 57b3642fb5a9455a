import { describe, expect, it } from "@effect/vitest"
import * as Client from "../../src/api/Client.js"

describe("the console's API client with files", () => {
  it("sends a file as it is, with its media type, and answers the JSON", async () => {
    const asked: Array<RequestInit> = []
    const api = Client.make({
      root: "/",
      apiKey: () => "vap_key",
      fetch: (async (_url: string, init: RequestInit) => {
        asked.push(init)
        return new Response(JSON.stringify({ added: 1, duplicates: 0, rejected: [] }), {
          headers: { "content-type": "application/json" }
        })
      }) as unknown as typeof fetch
    })
    const file = new Blob(["phone_number\n+48500100200\n"], { type: "text/csv" })
    const answer = await api.post("/api/v1/campaigns/{campaign_id}/contacts", {
      path: { campaign_id: 7 },
      content: { type: "text/csv", data: file }
    })
    expect(answer).toEqual({ added: 1, duplicates: 0, rejected: [] })
    const headers = asked[0]!.headers as Record<string, string>
    expect(headers["content-type"]).toBe("text/csv")
    expect(headers["x-api-key"]).toBe("vap_key")
    expect(asked[0]!.body).toBe(file)
  })

  it("downloads an answer in another media type as a Blob, with the key, and reports a refusal as an error", async () => {
    const asked: Array<{ url: string; init: RequestInit }> = []
    let status = 200
    const api = Client.make({
      root: "/voice/",
      apiKey: () => "vap_key",
      fetch: (async (url: string, init: RequestInit) => {
        asked.push({ url, init })
        return status === 200
          ? new Response("phone_number,status\n+48500100200,completed\n", {
              headers: { "content-type": "text/csv" }
            })
          : new Response(JSON.stringify({ detail: "Campaign not found" }), {
              status,
              headers: { "content-type": "application/json" }
            })
      }) as unknown as typeof fetch
    })
    const file = await api.download(
      "/api/v1/campaigns/{campaign_id}/report",
      { path: { campaign_id: 7 } },
      "text/csv"
    )
    expect(await file.text()).toBe("phone_number,status\n+48500100200,completed\n")
    expect(asked[0]!.url).toBe("/voice/api/v1/campaigns/7/report")
    expect(asked[0]!.init.headers).toMatchObject({ accept: "text/csv", "x-api-key": "vap_key" })
    status = 404
    await expect(
      api.download("/api/v1/campaigns/{campaign_id}/report", { path: { campaign_id: 8 } }, "text/csv")
    ).rejects.toMatchObject({ status: 404, message: "Campaign not found" })
  })
})
