import { Either } from "effect"
import type { OutboundMethod } from "../outbound/OutboundHttp.js"
import type { CheckedArguments } from "./ToolArguments.js"
import type { HttpApiConfig } from "./ToolDefinition.js"
import { isSecretHeader } from "./Tool.js"
import * as ToolPlaceholders from "./ToolPlaceholders.js"

/** An HTTP API tool's request, built from its definition, the arguments and the initial context. */
export interface BuiltRequest {
  readonly method: OutboundMethod
  readonly url: string
  readonly headers: Readonly<Record<string, string>>
  readonly body?: string
  /**
   * What the request carries that no log or answer may show: each secret header's filled value and what
   * filled each of its placeholders, and the credential's header value. Not sent as such.
   */
  readonly secrets: ReadonlyArray<string>
}

/** Whether a method carries its arguments in the query (GET, DELETE) rather than in a JSON body. */
export const sendsQuery = (method: OutboundMethod): boolean => method === "GET" || method === "DELETE"

const headerName = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/
// What node:http accepts in a header value: no CR, LF or other control character.
const headerValue = /^[\t\x20-\x7e\x80-\xff]*$/

const nonEmpty = (texts: ReadonlyArray<string>) => [...new Set(texts)].filter((text) => text.length > 0)

/**
 * The arguments a secret header's template reads (`X-Api-Key: {{key}}`): a log shows them masked, as it
 * does arguments of secret-looking names.
 */
export const secretArgumentNames = (config: HttpApiConfig): ReadonlyArray<string> => [
  ...new Set(
    Object.entries(config.headers ?? {}).flatMap(([name, template]) =>
      isSecretHeader(name) ? [...ToolPlaceholders.argumentNames(template)] : []
    )
  )
]

/**
 * Builds the request: placeholders filled (URL-encoded in the URL); the arguments no URL placeholder
 * read go to the query (GET, DELETE) or a JSON body (POST, PUT, PATCH, always an object); then the
 * credential's header, which replaces a definition header of the same name. Fails with a sentence when
 * the filled URL is not a URL or a header cannot be sent (a value with a line break).
 */
export const build = (
  config: HttpApiConfig,
  args: CheckedArguments,
  initialContext: Readonly<Record<string, unknown>>,
  credentialHeader: readonly [string, string] | null
): Either.Either<BuiltRequest, string> => {
  // `.` and `..` survive URL encoding and would move the request up the receiver's path.
  const dotSegments: Array<string> = []
  const filledUrl = ToolPlaceholders.fill(config.url, args, initialContext, (value) => {
    if (value === "." || value === "..") dotSegments.push(value)
    return encodeURIComponent(value)
  })
  if (dotSegments.length > 0) return Either.left("a value filled into the URL must not be . or ..")
  if (!URL.canParse(filledUrl))
    return Either.left("the URL is not a valid URL once its placeholders are filled")
  const url = new URL(filledUrl)
  const inUrl = ToolPlaceholders.argumentNames(config.url)
  const rest = Object.entries(args).filter(([name]) => !inUrl.has(name))
  const headers: Record<string, string> = {}
  const secrets: Array<string> = []
  for (const [name, template] of Object.entries(config.headers ?? {})) {
    if (!headerName.test(name))
      return Either.left(`header ${JSON.stringify(name)} is not a valid header name`)
    const value = ToolPlaceholders.fill(template, args, initialContext)
    if (!headerValue.test(value))
      return Either.left(`header ${name} would contain a line break or control character`)
    headers[name.toLowerCase()] = value
    if (isSecretHeader(name)) {
      secrets.push(value, ...ToolPlaceholders.filledValues(template, args, initialContext))
    }
  }
  if (credentialHeader !== null) {
    // A stored secret may hold any character; the sentence never repeats it.
    if (!headerValue.test(credentialHeader[1]))
      return Either.left(
        "the credential's secret contains a line break or control character and cannot be sent"
      )
    headers[credentialHeader[0].toLowerCase()] = credentialHeader[1]
    secrets.push(credentialHeader[1])
  }
  if (sendsQuery(config.method)) {
    for (const [name, value] of rest) url.searchParams.append(name, String(value))
    return Either.right({ method: config.method, url: url.href, headers, secrets: nonEmpty(secrets) })
  }
  headers["content-type"] = "application/json"
  return Either.right({
    method: config.method,
    url: url.href,
    headers,
    body: JSON.stringify(Object.fromEntries(rest)),
    secrets: nonEmpty(secrets)
  })
}
