import { describe, expect, it } from "@effect/vitest"
import { dayOf, runsRequestOf } from "../../src/screens/runs/RunFilters.js"
import { formatOffset, onThisOrigin, turnOffsets } from "../../src/screens/runs/RunTimes.js"

describe("the runs list's address as the API's request", () => {
  it("passes the filters the API names, days as instants (the last day included), and the page", () => {
    const query = new URLSearchParams(
      "status=completed&mode=phone&agent_id=agent_x&phone_number=%2B48500100200&disposition=booked&from=2026-02-27&to=2026-02-28&page=3"
    )
    expect(runsRequestOf(query)).toEqual({
      page: 3,
      limit: 20,
      status: "completed",
      mode: "phone",
      agent_id: "agent_x",
      phone_number: "+48500100200",
      disposition: "booked",
      created_after: "2026-02-27T00:00:00.000Z",
      created_before: "2026-03-01T00:00:00.000Z"
    })
  })

  it("leaves out what a hand-edited address got wrong", () => {
    const query = new URLSearchParams(
      `status=done&mode=fax&phone_number=%20&disposition=${"x".repeat(101)}&from=2026-02-30&to=yesterday&page=-1`
    )
    expect(runsRequestOf(query)).toEqual({
      page: 1,
      limit: 20,
      status: undefined,
      mode: undefined,
      agent_id: undefined,
      phone_number: undefined,
      disposition: undefined,
      created_after: undefined,
      created_before: undefined
    })
    expect(dayOf("2024-02-29")).toBe("2024-02-29")
    expect(dayOf("2025-02-29")).toBeUndefined()
    expect(dayOf(null)).toBeUndefined()
  })
})

describe("a transcript's turns in the recording", () => {
  it("places each turn from the first one's start (the recording starts when the call is answered)", () => {
    const turns = [
      { start: "2026-03-01T12:00:10.000Z" },
      { start: "2026-03-01T12:00:12.500Z" },
      { start: "2026-03-01T12:01:15.000Z" }
    ]
    expect(turnOffsets(turns)).toEqual([0, 2.5, 65])
    expect(turnOffsets([])).toEqual([])
    // a time that cannot be read, or one before the first, is the recording's start
    expect(
      turnOffsets([
        { start: "2026-03-01T12:00:10.000Z" },
        { start: "soon" },
        { start: "2026-03-01T12:00:00.000Z" }
      ])
    ).toEqual([0, 0, 0])
    expect(formatOffset(65.9)).toBe("1:05")
    expect(formatOffset(0)).toBe("0:00")
  })

  it("reads a signed link on the console's own origin, under the address it reaches the API at", () => {
    const link = "https://api.example.com/api/v1/files/download?key=r%2F1.wav&expires=1&signature=abc"
    expect(onThisOrigin(link, "/")).toBe("/api/v1/files/download?key=r%2F1.wav&expires=1&signature=abc")
    expect(onThisOrigin(link, "/voice/")).toBe(
      "/voice/api/v1/files/download?key=r%2F1.wav&expires=1&signature=abc"
    )
    expect(onThisOrigin("https://x.example/voice/api/v1/files/download?k=1", "/voice/")).toBe(
      "/voice/api/v1/files/download?k=1"
    )
    expect(onThisOrigin("https://elsewhere.example/file.wav", "/")).toBeUndefined()
  })

  it("refuses a link that is not http(s), is not a file of the API, or would leave its path", () => {
    for (const hostile of [
      "foo:x/api/v1/../../../admin",
      "javascript:alert(1)//api/v1/files/download",
      "/api/v1/files/download?key=k",
      "https://api.example.com/api/v1/agents",
      "https://api.example.com/api/v1/files/",
      "https://api.example.com/api/v1/files/%2e%2e/agents",
      "https://api.example.com/api/v1/files/a%2f..%2fb",
      "https://api.example.com/api/v1/files/a%5c..",
      "not a link"
    ]) {
      expect(onThisOrigin(hostile, "/voice/"), hostile).toBeUndefined()
    }
    // the URL parser resolves plain dots before the path is read: what is left must still be a file's
    expect(onThisOrigin("https://api.example.com/api/v1/files/../agents", "/")).toBeUndefined()
    for (const address of [
      onThisOrigin("https://api.example.com/x/api/v1/files/download?key=a", "/voice/"),
      onThisOrigin("http://127.0.0.1:8080/api/v1/files/download?key=a&signature=b", "/")
    ]) {
      expect(new URL(address!, "https://console.example").pathname).toMatch(
        /^(\/voice)?\/api\/v1\/files\/download$/
      )
    }
  })
})
