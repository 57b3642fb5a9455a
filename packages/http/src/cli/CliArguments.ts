import { Either } from "effect"
import { parseArgs } from "node:util"

/** A command of `vap`, as parsed from its arguments. */
export type Command =
  | { readonly _tag: "Help"; readonly text: string }
  | { readonly _tag: "Migrate" }
  | { readonly _tag: "OrgCreate"; readonly name: string; readonly channels: number | undefined }
  | { readonly _tag: "OrgList" }
  | {
      readonly _tag: "OrgSet"
      readonly organizationId: number
      readonly name: string | undefined
      readonly channels: number | undefined
      readonly retentionDays: number | null | undefined
    }
  | { readonly _tag: "KeysCreate"; readonly organizationId: number }
  | { readonly _tag: "KeysList"; readonly organizationId: number }
  | { readonly _tag: "KeysRevoke"; readonly keyId: number }
  | { readonly _tag: "BalanceTopUp"; readonly organizationId: number; readonly amount: number }
  | { readonly _tag: "NumbersAdd"; readonly number: string; readonly numberType: "mobile" | "landline" }
  | {
      readonly _tag: "Usage"
      readonly organizationId: number
      readonly from: Date | undefined
      readonly to: Date | undefined
    }

/** A parsed invocation: the command and whether the answer is JSON. */
export interface Invocation {
  readonly command: Command
  readonly json: boolean
}

/** Arguments `vap` cannot run: the message says what is wrong; `help` is the text of the command meant. */
export class CommandLineError {
  readonly _tag = "CommandLineError"
  constructor(
    readonly message: string,
    readonly help: string
  ) {}
}

const environment = `Storage: DATABASE_URL (PostgreSQL; ENCRYPTION_KEY required), else the embedded database under
DATA_DIR (default ./.data; stop the server using it first). No running server is needed.`

const helps = {
  vap: `vap: the Voice Agent Platform operator's tool

Usage: vap <command> [options]

Commands:
  migrate                      apply pending schema versions
  org create|list|set          organizations
  keys create|list|revoke      API keys
  balance top-up               add to an organization's balance
  numbers add                  add a number to the inventory
  usage                        an organization's calls, minutes and cost in a period

Options: --json (machine-readable output), --help (on every command)

${environment}`,
  migrate: `Usage: vap migrate [--json]\n\nApplies the schema versions not applied yet and lists them.\n\n${environment}`,
  org: `Usage: vap org <create|list|set> ...

  vap org create --name <name> [--channels <n>]   a new organization and its first API key
  vap org list                                    every organization
  vap org set <organization_id> [--name <name>] [--channels <n>] [--retention-days <days>|none]`,
  "org create": `Usage: vap org create --name <name> [--channels <n>] [--json]\n\nCreates an organization and prints its first API key (shown once).`,
  "org list": `Usage: vap org list [--json]\n\nLists every organization (at most 10,000), oldest first.`,
  "org set": `Usage: vap org set <organization_id> [--name <name>] [--channels <n>] [--retention-days <days>|none] [--json]\n\nChanges an organization's name, outbound channels or recording retention (none keeps files).`,
  keys: `Usage: vap keys <create|list|revoke> ...

  vap keys create <organization_id>   another API key (shown once)
  vap keys list <organization_id>     the organization's keys (prefixes only)
  vap keys revoke <api_key_id>        revokes a key at once`,
  "keys create": `Usage: vap keys create <organization_id> [--json]`,
  "keys list": `Usage: vap keys list <organization_id> [--json]`,
  "keys revoke": `Usage: vap keys revoke <api_key_id> [--json]`,
  balance: `Usage: vap balance top-up <organization_id> --amount <PLN> [--json]`,
  "balance top-up": `Usage: vap balance top-up <organization_id> --amount <PLN> [--json]\n\nAdds the amount (PLN, at most 2 decimals, more than 0) to the balance.`,
  numbers: `Usage: vap numbers add <number> [--type mobile|landline] [--json]`,
  "numbers add": `Usage: vap numbers add <number> [--type mobile|landline] [--json]\n\nAdds a number (international form) to the inventory organizations order from (default type: mobile).`,
  usage: `Usage: vap usage <organization_id> [--from <ISO 8601>] [--to <ISO 8601>] [--json]\n\nCalls, minutes and cost in the period (default: the current UTC calendar month).`
} as const

type HelpTopic = keyof typeof helps

const options = {
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
  name: { type: "string" },
  channels: { type: "string" },
  "retention-days": { type: "string" },
  amount: { type: "string" },
  type: { type: "string" },
  from: { type: "string" },
  to: { type: "string" }
} as const

const positiveInteger = (
  text: string | undefined,
  what: string,
  help: string
): Either.Either<number, CommandLineError> => {
  if (text === undefined) return Either.left(new CommandLineError(`${what} is required`, help))
  return /^[1-9][0-9]{0,15}$/.test(text) && Number(text) <= Number.MAX_SAFE_INTEGER
    ? Either.right(Number(text))
    : Either.left(new CommandLineError(`${what} must be a whole number from 1, not "${text}"`, help))
}

const date = (
  text: string | undefined,
  what: string,
  help: string
): Either.Either<Date | undefined, CommandLineError> => {
  if (text === undefined) return Either.right(undefined)
  const parsed = /^\d{4}-\d{2}-\d{2}/.test(text) ? new Date(text) : new Date(Number.NaN)
  return Number.isNaN(parsed.getTime())
    ? Either.left(new CommandLineError(`${what} must be an ISO 8601 date or time, not "${text}"`, help))
    : Either.right(parsed)
}

/** Parses `vap`'s arguments (without `node` and the script). */
export const parse = (args: ReadonlyArray<string>): Either.Either<Invocation, CommandLineError> => {
  let parsed: ReturnType<typeof parseArgs<{ options: typeof options; allowPositionals: true; strict: true }>>
  try {
    parsed = parseArgs({ args: [...args], options, allowPositionals: true, strict: true })
  } catch (error) {
    return Either.left(new CommandLineError((error as Error).message, helps.vap))
  }
  const { values, positionals } = parsed
  const json = values.json === true
  const [group, action, ...rest] = positionals
  const topic = (action !== undefined && `${group} ${action}` in helps ? `${group} ${action}` : group) as
    HelpTopic | undefined
  const help = helps[topic !== undefined && topic in helps ? topic : "vap"]
  if (values.help === true || group === undefined || group === "help") {
    return Either.right({ command: { _tag: "Help", text: help }, json })
  }
  const ok = (command: Command) => Either.right<Invocation>({ command, json })
  const extra = (allowed: number) =>
    rest.length > allowed
      ? Either.left(new CommandLineError(`unexpected argument "${rest[allowed]}"`, help))
      : undefined
  const used = (names: ReadonlyArray<keyof typeof options>) => {
    const unused = (Object.keys(values) as Array<keyof typeof options>).find(
      (name) => name !== "json" && name !== "help" && !names.includes(name)
    )
    return unused === undefined
      ? undefined
      : Either.left(new CommandLineError(`--${unused} does not apply here`, help))
  }
  const check = (allowed: number, names: ReadonlyArray<keyof typeof options>) => extra(allowed) ?? used(names)

  switch (group) {
    case "migrate":
      return (
        (action === undefined
          ? undefined
          : Either.left(new CommandLineError(`unexpected argument "${action}"`, help))) ??
        used([]) ??
        ok({ _tag: "Migrate" })
      )
    case "org":
      switch (action) {
        case "create": {
          if (values.name === undefined || values.name.trim() === "") {
            return Either.left(new CommandLineError("--name is required", help))
          }
          const name = values.name
          const failed = check(0, ["name", "channels"])
          if (failed) return failed
          if (values.channels === undefined) return ok({ _tag: "OrgCreate", name, channels: undefined })
          return Either.flatMap(positiveInteger(values.channels, "--channels", help), (channels) =>
            ok({ _tag: "OrgCreate", name, channels })
          )
        }
        case "list":
          return check(0, []) ?? ok({ _tag: "OrgList" })
        case "set": {
          const failed = check(1, ["name", "channels", "retention-days"])
          if (failed) return failed
          return Either.gen(function* () {
            const organizationId = yield* positiveInteger(rest[0], "<organization_id>", help)
            const channels =
              values.channels === undefined
                ? undefined
                : yield* positiveInteger(values.channels, "--channels", help)
            const days = values["retention-days"]
            const retentionDays =
              days === undefined
                ? undefined
                : days === "none"
                  ? null
                  : yield* positiveInteger(days, "--retention-days", help)
            if (values.name === undefined && channels === undefined && retentionDays === undefined) {
              return yield* Either.left(
                new CommandLineError("nothing to change: give --name, --channels or --retention-days", help)
              )
            }
            return {
              command: { _tag: "OrgSet", organizationId, name: values.name, channels, retentionDays },
              json
            } as Invocation
          })
        }
      }
      break
    case "keys":
      switch (action) {
        case "create":
        case "list": {
          const failed = check(1, [])
          if (failed) return failed
          return Either.flatMap(positiveInteger(rest[0], "<organization_id>", help), (organizationId) =>
            ok({ _tag: action === "create" ? "KeysCreate" : "KeysList", organizationId })
          )
        }
        case "revoke": {
          const failed = check(1, [])
          if (failed) return failed
          return Either.flatMap(positiveInteger(rest[0], "<api_key_id>", help), (keyId) =>
            ok({ _tag: "KeysRevoke", keyId })
          )
        }
      }
      break
    case "balance":
      if (action === "top-up") {
        const failed = check(1, ["amount"])
        if (failed) return failed
        return Either.gen(function* () {
          const organizationId = yield* positiveInteger(rest[0], "<organization_id>", help)
          const text = values.amount
          if (text === undefined)
            return yield* Either.left(new CommandLineError("--amount is required", help))
          if (!/^[0-9]{1,12}(\.[0-9]{1,2})?$/.test(text) || Number(text) <= 0) {
            return yield* Either.left(
              new CommandLineError(
                `--amount must be more than 0 PLN with at most 2 decimals, not "${text}"`,
                help
              )
            )
          }
          return {
            command: { _tag: "BalanceTopUp", organizationId, amount: Number(text) },
            json
          } as Invocation
        })
      }
      break
    case "numbers":
      if (action === "add") {
        const failed = check(1, ["type"])
        if (failed) return failed
        const number = rest[0]
        if (number === undefined) return Either.left(new CommandLineError("<number> is required", help))
        const numberType = values.type ?? "mobile"
        if (numberType !== "mobile" && numberType !== "landline") {
          return Either.left(
            new CommandLineError(`--type must be mobile or landline, not "${numberType}"`, help)
          )
        }
        return ok({ _tag: "NumbersAdd", number, numberType })
      }
      break
    case "usage": {
      const failed = extra(0) ?? used(["from", "to"])
      if (failed) return failed
      return Either.gen(function* () {
        const organizationId = yield* positiveInteger(action, "<organization_id>", help)
        const from = yield* date(values.from, "--from", help)
        const to = yield* date(values.to, "--to", help)
        return { command: { _tag: "Usage", organizationId, from, to }, json } as Invocation
      })
    }
    default:
      return Either.left(new CommandLineError(`unknown command "${group}"`, helps.vap))
  }
  return Either.left(
    new CommandLineError(
      action === undefined ? `"${group}" needs a command` : `unknown command "${group} ${action}"`,
      help
    )
  )
}
