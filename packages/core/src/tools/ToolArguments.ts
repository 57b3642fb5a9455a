import { Either } from "effect"
import type { ToolParameter } from "./ToolDefinition.js"

/** A value a tool parameter takes (the types `ToolParameter.type` names). */
export type ArgumentValue = string | number | boolean

/** Arguments checked against a tool's parameters: only declared names, each of its declared type. */
export type CheckedArguments = Readonly<Record<string, ArgumentValue>>

const typeOf = (value: unknown): string =>
  value === null ? "null" : Array.isArray(value) ? "array" : typeof value

const matches = (parameter: ToolParameter, value: unknown): value is ArgumentValue =>
  parameter.type === "number"
    ? typeof value === "number" && Number.isFinite(value)
    : typeof value === parameter.type

/**
 * Checks the model's arguments against the tool's parameters: every required parameter is present, each
 * value has the parameter's type (a number is finite), and no undeclared name is passed (`extra` names
 * the ones a tool type accepts besides its parameters, e.g. a transfer's `destination_number`). A null
 * counts as absent. Fails with one sentence naming every problem, in parameter order.
 */
export const check = (
  parameters: ReadonlyArray<ToolParameter> | null | undefined,
  args: Readonly<Record<string, unknown>>,
  extra: ReadonlyArray<string> = []
): Either.Either<CheckedArguments, string> => {
  const declared = parameters ?? []
  const problems: Array<string> = []
  // Collected as entries: `Object.fromEntries` defines even a `__proto__` name as an own property.
  const checked: Array<readonly [string, ArgumentValue]> = []
  for (const parameter of declared) {
    const value = Object.hasOwn(args, parameter.name) ? args[parameter.name] : undefined
    if (value === undefined || value === null) {
      if (parameter.required) problems.push(`${parameter.name} is required`)
      continue
    }
    if (!matches(parameter, value)) {
      problems.push(`${parameter.name} must be a ${parameter.type}, got ${typeOf(value)}`)
      continue
    }
    checked.push([parameter.name, value])
  }
  const known = new Set([...declared.map((p) => p.name), ...extra])
  const unknown = Object.keys(args).filter((name) => !known.has(name))
  if (unknown.length > 0)
    problems.push(`unknown argument${unknown.length > 1 ? "s" : ""} ${unknown.join(", ")}`)
  return problems.length === 0 ? Either.right(Object.fromEntries(checked)) : Either.left(problems.join("; "))
}
