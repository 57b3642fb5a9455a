import { describe, expect, it } from "@effect/vitest"
import { FastCheck } from "effect"
import { oneOf, pageOf, patchQuery } from "../../src/routing/QueryState.js"
import { matchRoute, pathOf } from "../../src/routing/RoutePattern.js"

const query = (text: string) => new URLSearchParams(text)

describe("a view's state in the address", () => {
  it("a new filter sends the list back to its first page; a new page keeps the filters", () => {
    expect(patchQuery(query("page=3&status=active"), { status: "archived" })).toBe("?status=archived")
    expect(patchQuery(query("status=active"), { page: 2 })).toBe("?page=2&status=active")
    expect(patchQuery(query("page=2&status=active"), { status: "" })).toBe("")
    expect(patchQuery(query("status=active&page=2"), { page: 1 })).toBe("?status=active")
  })

  it.prop(
    "one view has one address: the same parameters in any order give the same query",
    [
      FastCheck.dictionary(
        FastCheck.constantFrom("a", "b", "status", "page"),
        FastCheck.string({ minLength: 1, maxLength: 5 })
      )
    ],
    ([parameters]) => {
      const entries = Object.entries(parameters)
      const forward = patchQuery(new URLSearchParams(entries), { page: 2 })
      const backward = patchQuery(new URLSearchParams([...entries].reverse()), { page: 2 })
      expect(forward).toBe(backward)
    }
  )

  it("reads the page and the filters a hand-edited address gives, ignoring what is not allowed", () => {
    expect(pageOf(query("page=4"))).toBe(4)
    for (const bad of ["page=0", "page=-1", "page=x", "page=1e3", ""]) expect(pageOf(query(bad))).toBe(1)
    expect(oneOf(query("status=archived"), "status", ["active", "archived"])).toBe("archived")
    expect(oneOf(query("status=deleted"), "status", ["active", "archived"])).toBeUndefined()
  })
})

describe("screens' addresses", () => {
  it("match whole segments and decode their parameters", () => {
    expect(matchRoute("agents/:agentId", "agents/agent_x")).toEqual({ agentId: "agent_x" })
    expect(matchRoute("agents/:agentId", "agents/a%20b")).toEqual({ agentId: "a b" })
    expect(matchRoute("agents/:agentId", "agents")).toBeUndefined()
    expect(matchRoute("agents/:agentId", "agents/x/chat")).toBeUndefined()
    expect(matchRoute("agents/:agentId", "agents/%E0%A4%A")).toBeUndefined()
    expect(matchRoute("", "")).toEqual({})
  })

  it.prop(
    "a path made for a parameter matches back to it",
    [FastCheck.string({ minLength: 1, maxLength: 30 })],
    ([id]) => {
      expect(matchRoute("agents/:agentId/chat", pathOf("agents/:agentId/chat", { agentId: id }))).toEqual({
        agentId: id
      })
    }
  )
})
