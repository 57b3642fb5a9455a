import { describe, expect, it } from "@effect/vitest"
import { Either, FastCheck } from "effect"
import * as CliArguments from "../../src/cli/CliArguments.js"

const parsed = (...args: Array<string>) => Either.getOrThrow(CliArguments.parse(args))
const refused = (...args: Array<string>) => Either.flip(CliArguments.parse(args)).pipe(Either.getOrThrow)

describe("vap's arguments", () => {
  it("parses every command with its options", () => {
    expect(parsed("migrate").command).toEqual({ _tag: "Migrate" })
    expect(parsed("org", "create", "--name", "Acme", "--channels", "3", "--json")).toEqual({
      command: { _tag: "OrgCreate", name: "Acme", channels: 3 },
      json: true
    })
    expect(parsed("org", "list").command).toEqual({ _tag: "OrgList" })
    expect(parsed("org", "set", "7", "--retention-days", "none").command).toEqual({
      _tag: "OrgSet",
      organizationId: 7,
      name: undefined,
      channels: undefined,
      retentionDays: null
    })
    expect(parsed("keys", "create", "7").command).toEqual({ _tag: "KeysCreate", organizationId: 7 })
    expect(parsed("keys", "list", "7").command).toEqual({ _tag: "KeysList", organizationId: 7 })
    expect(parsed("keys", "revoke", "12").command).toEqual({ _tag: "KeysRevoke", keyId: 12 })
    expect(parsed("balance", "top-up", "7", "--amount", "12.50").command).toEqual({
      _tag: "BalanceTopUp",
      organizationId: 7,
      amount: 12.5
    })
    expect(parsed("numbers", "add", "+48221234567").command).toEqual({
      _tag: "NumbersAdd",
      number: "+48221234567",
      numberType: "mobile"
    })
    expect(parsed("usage", "7", "--from", "2026-01-01").command).toEqual({
      _tag: "Usage",
      organizationId: 7,
      from: new Date("2026-01-01"),
      to: undefined
    })
  })

  it("answers the help of the command asked about", () => {
    expect(parsed().command).toMatchObject({
      _tag: "Help",
      text: expect.stringContaining("Usage: vap <command>")
    })
    expect(parsed("--help").command).toMatchObject({
      _tag: "Help",
      text: expect.stringContaining("Commands:")
    })
    expect(parsed("org", "--help").command).toMatchObject({ text: expect.stringContaining("vap org create") })
    expect(parsed("org", "set", "--help").command).toMatchObject({
      text: expect.stringContaining("Usage: vap org set <organization_id>")
    })
    expect(parsed("balance", "top-up", "-h").command).toMatchObject({
      text: expect.stringContaining("--amount")
    })
  })

  it("refuses what it cannot run, saying what is wrong", () => {
    expect(refused("frobnicate").message).toBe('unknown command "frobnicate"')
    expect(refused("org").message).toBe('"org" needs a command')
    expect(refused("org", "delete").message).toBe('unknown command "org delete"')
    expect(refused("org", "create").message).toBe("--name is required")
    expect(refused("org", "create", "--name", "A", "--channels", "0").message).toMatch(
      /--channels must be a whole number/
    )
    expect(refused("org", "set", "7").message).toMatch(/nothing to change/)
    expect(refused("org", "list", "--amount", "3").message).toBe("--amount does not apply here")
    expect(refused("keys", "list").message).toBe("<organization_id> is required")
    expect(refused("keys", "revoke", "abc").message).toMatch(/<api_key_id> must be a whole number/)
    expect(refused("keys", "list", "7", "8").message).toBe('unexpected argument "8"')
    expect(refused("balance", "top-up", "7", "--amount=-5").message).toMatch(/--amount must be more than 0/)
    expect(refused("balance", "top-up", "7", "--amount", "0").message).toMatch(/--amount must be more than 0/)
    expect(refused("numbers", "add", "+48221234567", "--type", "fax").message).toMatch(
      /--type must be mobile or landline/
    )
    expect(refused("usage", "7", "--from", "yesterday").message).toMatch(/--from must be an ISO 8601/)
    expect(refused("org", "list", "--bogus").message).toMatch(/Unknown option '--bogus'/)
  })

  it.prop(
    "reads any organization id back, and refuses anything that is not a whole number from 1",
    [
      FastCheck.oneof(
        FastCheck.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }).map(String),
        FastCheck.string()
      )
    ],
    ([text]) => {
      const result = CliArguments.parse(["keys", "list", text])
      const valid = /^[1-9][0-9]*$/.test(text) && Number(text) <= Number.MAX_SAFE_INTEGER
      return valid
        ? Either.isRight(result) &&
            (result.right.command as { organizationId: number }).organizationId === Number(text)
        : Either.isLeft(result)
    }
  )
})
