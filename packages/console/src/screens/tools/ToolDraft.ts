import type { Operation, RequestOptions, Schema } from "../../api/Client.js"

// A tool as its form holds it (every field text, as typed) and the API's body made from it. Pure: the rules
// are tested in packages/console/test/screens/ToolDraft.test.ts.

export type Tool = Schema<"Tool">
export type ParameterType = "string" | "number" | "boolean"
export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE"
/** The kinds of tool the console's form makes and edits (an integration tool is shown, not edited). */
export type EditableType = "http_api" | "transfer" | "end_call"

export const httpMethods: ReadonlyArray<HttpMethod> = ["GET", "POST", "PUT", "PATCH", "DELETE"]
export const parameterTypes: ReadonlyArray<ParameterType> = ["string", "number", "boolean"]
export const editableTypes: ReadonlyArray<{ readonly value: EditableType; readonly label: string }> = [
  { value: "http_api", label: "HTTP API: calls a URL" },
  { value: "transfer", label: "Transfer: hands the call to a number" },
  { value: "end_call", label: "End call: hangs up" }
]

/** The API's bound on a tool's timeout (ms). */
export const maxTimeoutMs = 30_000

/** A parameter the model passes to the tool, as a row of the form. */
export interface ParameterRow {
  readonly key: number
  readonly name: string
  readonly type: ParameterType
  readonly description: string
  readonly required: boolean
}

/** Everything the form edits. */
export interface ToolDraft {
  readonly name: string
  readonly description: string
  readonly type: EditableType
  readonly method: HttpMethod
  readonly url: string
  /** One header a line, `Name: value`. */
  readonly headers: string
  readonly credentialUuid: string
  readonly parameters: ReadonlyArray<ParameterRow>
  readonly timeoutMs: string
  /** One path a line (`items.0.name`). */
  readonly responseFields: string
  readonly errorMessage: string
  readonly waitMessage: string
  /** One phrase a line. */
  readonly triggerPhrases: string
  readonly destinationNumber: string
  readonly transferMessage: string
  readonly endMessageType: "none" | "custom"
  readonly customMessage: string
}

export const emptyDraft: ToolDraft = {
  name: "",
  description: "",
  type: "http_api",
  method: "GET",
  url: "",
  headers: "",
  credentialUuid: "",
  parameters: [],
  timeoutMs: "",
  responseFields: "",
  errorMessage: "",
  waitMessage: "",
  triggerPhrases: "",
  destinationNumber: "",
  transferMessage: "",
  endMessageType: "none",
  customMessage: ""
}

type ApiParameter = { name: string; type: ParameterType; description: string; required?: boolean }

const rowsOf = (parameters: ReadonlyArray<ApiParameter> | null | undefined): ReadonlyArray<ParameterRow> =>
  (parameters ?? []).map((parameter, key) => ({
    key,
    name: parameter.name,
    type: parameter.type,
    description: parameter.description,
    required: parameter.required ?? true
  }))

const linesOf = (values: ReadonlyArray<string> | null | undefined): string => (values ?? []).join("\n")

/** The form's fields for a tool as the API answers it (undefined: an integration tool, not edited here). */
export const draftOf = (tool: Tool): ToolDraft | undefined => {
  const common = { ...emptyDraft, name: tool.name, description: tool.description ?? "" }
  const definition = tool.definition
  switch (definition.type) {
    case "http_api": {
      const config = definition.config
      return {
        ...common,
        type: "http_api",
        method: config.method,
        url: config.url,
        headers: Object.entries(config.headers ?? {})
          .map(([name, value]) => `${name}: ${value}`)
          .join("\n"),
        credentialUuid: config.credential_uuid ?? "",
        parameters: rowsOf(config.parameters),
        timeoutMs: config.timeout_ms === null ? "" : String(config.timeout_ms),
        responseFields: linesOf(config.response_fields),
        errorMessage: config.error_message ?? "",
        waitMessage: config.wait_message ?? "",
        triggerPhrases: linesOf(config.trigger_phrases)
      }
    }
    case "transfer":
      return {
        ...common,
        type: "transfer",
        destinationNumber: definition.config.destination_number ?? "",
        transferMessage: definition.config.message ?? "",
        parameters: rowsOf(definition.config.parameters)
      }
    case "end_call":
      return {
        ...common,
        type: "end_call",
        endMessageType: definition.config.messageType,
        customMessage: definition.config.customMessage ?? ""
      }
    default:
      return undefined
  }
}

/** What the form sends: the create body (a PATCH takes the same fields). */
export type ToolBody = NonNullable<RequestOptions<Operation<"/api/v1/tools", "post">>["body"]>

/** Non-empty lines, trimmed. */
export const lines = (text: string): Array<string> =>
  text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "")

/** `Name: value` lines as headers; a line without a name and a colon is refused, with its number. */
export const headersOf = (text: string): Record<string, string> | string => {
  const headers: Record<string, string> = {}
  const all = text.split(/\r?\n/)
  for (let index = 0; index < all.length; index++) {
    const line = all[index]!.trim()
    if (line === "") continue
    const colon = line.indexOf(":")
    const name = colon < 0 ? "" : line.slice(0, colon).trim()
    if (name === "" || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name))
      return `Headers, line ${index + 1}: write it as Name: value.`
    headers[name] = line.slice(colon + 1).trim()
  }
  return headers
}

const parametersOf = (rows: ReadonlyArray<ParameterRow>): Array<ApiParameter> | string => {
  const kept = rows.filter((row) => row.name.trim() !== "")
  const names = kept.map((row) => row.name.trim())
  const repeated = names.find((name, index) => names.indexOf(name) !== index)
  if (repeated !== undefined) return `The parameter ${repeated} is given twice.`
  const undescribed = kept.find((row) => row.description.trim() === "")
  if (undescribed !== undefined)
    return `Say what the parameter ${undescribed.name.trim()} is: the model reads it.`
  return kept.map((row) => ({
    name: row.name.trim(),
    type: row.type,
    description: row.description.trim(),
    required: row.required
  }))
}

const orNull = (text: string): string | null => (text.trim() === "" ? null : text.trim())

/**
 * The API's body for the form's fields, or what is wrong with them (checked here only where the form can
 * say it better than the API; everything else the API checks, and its 422 is shown).
 */
export const bodyOf = (draft: ToolDraft): ToolBody | string => {
  if (draft.name.trim() === "") return "Give the tool a name."
  const common = { name: draft.name.trim(), description: orNull(draft.description) }
  if (draft.type === "end_call")
    return {
      ...common,
      definition: {
        type: "end_call",
        config:
          draft.endMessageType === "custom"
            ? { messageType: "custom", customMessage: draft.customMessage.trim() }
            : { messageType: "none" }
      }
    }
  const parameters = parametersOf(draft.parameters)
  if (typeof parameters === "string") return parameters
  if (draft.type === "transfer")
    return {
      ...common,
      definition: {
        type: "transfer",
        config: {
          destination_number: orNull(draft.destinationNumber),
          message: orNull(draft.transferMessage),
          parameters
        }
      }
    }
  if (draft.url.trim() === "") return "Give the URL the tool calls."
  const headers = headersOf(draft.headers)
  if (typeof headers === "string") return headers
  const timeout = draft.timeoutMs.trim()
  if (
    timeout !== "" &&
    !(/^\d{1,6}$/.test(timeout) && Number(timeout) >= 1 && Number(timeout) <= maxTimeoutMs)
  )
    return `The timeout is a whole number of milliseconds from 1 to ${maxTimeoutMs}.`
  return {
    ...common,
    definition: {
      type: "http_api",
      config: {
        method: draft.method,
        url: draft.url.trim(),
        headers,
        credential_uuid: orNull(draft.credentialUuid),
        parameters,
        timeout_ms: timeout === "" ? null : Number(timeout),
        response_fields: lines(draft.responseFields),
        error_message: orNull(draft.errorMessage),
        wait_message: orNull(draft.waitMessage),
        trigger_phrases: lines(draft.triggerPhrases)
      }
    }
  }
}
