import { HttpApi, HttpApiEndpoint, HttpApiGroup, HttpApiSchema } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Schema } from "effect"
import * as EndpointRouter from "../../src/edge/EndpointRouter.js"

const id = HttpApiSchema.param("id", Schema.String)
const api = HttpApi.make("test").add(
  HttpApiGroup.make("things").add(HttpApiEndpoint.get("thing")`/things/${id}`)
)

describe("EndpointRouter: the last match, shared by concurrent requests", () => {
  it("answers a match no reader can change", () => {
    const match = EndpointRouter.make(api)
    const found = match("GET", "/things/7?tag=a&tag=b")
    expect(found?.params).toEqual({ id: "7" })
    expect(found?.searchParams).toEqual({ tag: ["a", "b"] })
    // the same object answers the same request again: it is frozen, lists included
    expect(match("GET", "/things/7?tag=a&tag=b")).toBe(found)
    expect(() => ((found!.params as Record<string, string>)["id"] = "8")).toThrow(TypeError)
    expect(() => (found!.searchParams["tag"] as Array<string>).push("c")).toThrow(TypeError)
    expect(match("GET", "/things/7?tag=a&tag=b")?.params).toEqual({ id: "7" })
  })
})
