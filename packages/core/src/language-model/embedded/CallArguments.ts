import type { FunctionTool, JsonSchema } from "../LanguageModel.js"
import type { FieldValue, Turn } from "./FieldExtraction.js"
import { cleanAnswer, valueOf } from "./FieldExtraction.js"
import type { Wanted } from "./FieldKinds.js"
import { numberIn, yesNoIn } from "./Values.js"
import { contentWords, fold, words } from "./Words.js"

/**
 * A function call's arguments, built from its JSON-schema parameters: each value read out of the
 * conversation as a data field would be (`FieldExtraction`), else from the turn that asked for the
 * function (the words after its trigger phrase for the first text parameter, a number or a yes/no in it),
 * else left out. A required parameter left out makes the call wait: the model asks for it instead.
 */

/** A function's parameter as the model reads it from the JSON schema. */
export interface Parameter extends Wanted {
  readonly required: boolean
  readonly integer: boolean
  /** The values allowed, when the schema lists them. */
  readonly options: ReadonlyArray<string | number | boolean> | null
}

const isRecord = (value: unknown): value is Readonly<Record<string, unknown>> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/** The first type a property schema names other than `null` (`["string", "null"]` → `string`). */
const typeOf = (schema: Readonly<Record<string, unknown>>): string | undefined => {
  const type = schema["type"]
  if (typeof type === "string") return type
  if (Array.isArray(type)) return type.find((t): t is string => typeof t === "string" && t !== "null")
  const options = schema["anyOf"] ?? schema["oneOf"]
  if (Array.isArray(options)) {
    for (const option of options) if (isRecord(option) && typeOf(option) !== "null") return typeOf(option)
  }
  if (Array.isArray(schema["enum"])) return typeof schema["enum"][0]
  return undefined
}

/** The parameters of a function, in the order of its schema's properties. */
export const parametersOf = (parameters: JsonSchema): ReadonlyArray<Parameter> => {
  const properties = isRecord(parameters["properties"]) ? parameters["properties"] : {}
  const required = Array.isArray(parameters["required"]) ? new Set(parameters["required"]) : new Set()
  return Object.entries(properties).map(([name, raw]) => {
    const schema = isRecord(raw) ? raw : {}
    const type = typeOf(schema)
    const format = schema["format"]
    const options = Array.isArray(schema["enum"])
      ? schema["enum"].filter(
          (value): value is string | number | boolean => typeof value !== "object" || value === null
        )
      : null
    return {
      name,
      description: typeof schema["description"] === "string" ? schema["description"] : null,
      type:
        type === "number" || type === "integer"
          ? "number"
          : type === "boolean"
            ? "boolean"
            : format === "date"
              ? "date"
              : "string",
      required: required.has(name),
      integer: type === "integer",
      options
    }
  })
}

/** The option the user's words name best (all of the option's words said), or undefined. */
const optionSaid = (
  options: ReadonlyArray<string | number | boolean>,
  said: ReadonlyArray<string>
): string | number | boolean | undefined => {
  const heard = ` ${said.flatMap((text) => words(text)).join(" ")} `
  return options.find((option) => {
    const optionWords = words(String(option)).join(" ")
    return optionWords !== "" && heard.includes(` ${optionWords} `)
  })
}

/** The words after the first trigger phrase of the function in the turn, as a text value. */
const afterTrigger = (turn: string, phrases: ReadonlyArray<string>): string | undefined => {
  const folded = fold(turn)
  for (const phrase of phrases) {
    const wanted = words(phrase)
    if (wanted.length === 0) continue
    const pattern = new RegExp(
      `(?<![\\p{L}\\p{N}])${wanted.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("[^\\p{L}\\p{N}]+")}(?![\\p{L}\\p{N}])`,
      "u"
    )
    const m = pattern.exec(folded)
    if (m === null) continue
    const rest = turn
      .slice(m.index + m[0].length)
      .replace(/^[\s,:;-]*(?:for|is|of|dla|to|numer|number)?\s*/i, "")
      // the turn may be a question ("can you check my order A-17?"): its words are still the value
      .replace(/[\s?]+$/, "")
    const value = cleanAnswer(rest)
    if (value !== undefined && contentWords(value).length > 0) return value
  }
  return undefined
}

export type Built =
  | { readonly _tag: "Ready"; readonly arguments: Readonly<Record<string, FieldValue>> }
  | { readonly _tag: "Missing"; readonly parameter: Parameter }

/** What the arguments are built from. */
export interface Sources {
  /** The conversation so far. */
  readonly turns: ReadonlyArray<Turn>
  /** The user turn that asked for the function, if any. */
  readonly asking: string | undefined
  readonly triggerPhrases: ReadonlyArray<string>
  /** A value for a required parameter nothing else gave (the end function's closing words). */
  readonly fallback?: (parameter: Parameter) => FieldValue | undefined
}

const fits = (parameter: Parameter, value: FieldValue): boolean => {
  if (parameter.options !== null && !parameter.options.includes(value)) return false
  if (parameter.type === "number")
    return typeof value === "number" && (!parameter.integer || Number.isInteger(value))
  if (parameter.type === "boolean") return typeof value === "boolean"
  return typeof value === "string"
}

/** The function's arguments, or the first required parameter nothing gave. */
export const build = (fn: FunctionTool, sources: Sources): Built => {
  const parameters = parametersOf(fn.parameters)
  const built: Array<readonly [string, FieldValue]> = []
  let remainderUsed = false
  for (const parameter of parameters) {
    const candidates: Array<() => FieldValue | undefined> = [
      () =>
        parameter.options === null
          ? valueOf(parameter, sources.turns, parameters)
          : optionSaid(parameter.options, [
              sources.asking ?? "",
              ...sources.turns.filter((t) => t.role === "user").map((t) => t.text)
            ]),
      () => {
        if (sources.asking === undefined) return undefined
        if (parameter.type === "number") return numberIn(sources.asking)
        if (parameter.type === "boolean") return yesNoIn(sources.asking)
        if (remainderUsed || parameter.options !== null) return undefined
        const rest = afterTrigger(sources.asking, sources.triggerPhrases)
        if (rest !== undefined) remainderUsed = true
        return rest
      },
      () => (parameter.required ? sources.fallback?.(parameter) : undefined)
    ]
    let value: FieldValue | undefined
    for (const candidate of candidates) {
      const found = candidate()
      if (found !== undefined && fits(parameter, found)) {
        value = found
        break
      }
    }
    if (value !== undefined) built.push([parameter.name, value])
    else if (parameter.required) return { _tag: "Missing", parameter }
  }
  // entries, so that even a parameter named `__proto__` is an own property
  return { _tag: "Ready", arguments: Object.fromEntries(built) }
}
