import { describe, expect, it } from "@effect/vitest"
import { FastCheck, Schema } from "effect"
import { AgentPublicId, parseAgentRef, publicIdFrom } from "../../src/agents/AgentIds.js"

const alphanumeric = FastCheck.constantFrom(
  ..."0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".split("")
)
const publicIdBody = FastCheck.array(alphanumeric, { minLength: 20, maxLength: 20 }).map((cs) => cs.join(""))

describe("AgentIds.parseAgentRef", () => {
  it("reads a public id", () => {
    expect(parseAgentRef("agent_AbCdEfGhIjKlMnOpQrSt")).toEqual({
      _tag: "PublicId",
      publicId: "agent_AbCdEfGhIjKlMnOpQrSt"
    })
  })

  it("reads a number", () => {
    expect(parseAgentRef("42")).toEqual({ _tag: "Number", id: 42 })
  })

  it.each([
    "",
    "0",
    "-1",
    "01",
    "1.5",
    "1e3",
    "agent_short",
    "agent_AbCdEfGhIjKlMnOpQrStU",
    "agent_AbCdEfGhIjKlMnOpQr-t",
    "AGENT_AbCdEfGhIjKlMnOpQrSt",
    "99999999999999999"
  ])("names no agent with %j", (segment) => {
    expect(parseAgentRef(segment)).toBeUndefined()
  })

  it.prop("every generated public id is valid and parses back", [publicIdBody], ([body]) => {
    const id = publicIdFrom(body)
    expect(Schema.is(AgentPublicId)(id)).toBe(true)
    expect(parseAgentRef(id)).toEqual({ _tag: "PublicId", publicId: id })
  })

  it.prop(
    "every positive safe integer is a number reference",
    [FastCheck.integer({ min: 1, max: Number.MAX_SAFE_INTEGER })],
    ([n]) => {
      expect(parseAgentRef(String(n))).toEqual({ _tag: "Number", id: n })
    }
  )
})
