import type { HttpApiEndpoint } from "@effect/platform"
import { HttpApiSchema } from "@effect/platform"
import { Context, Option, Schema, SchemaAST } from "effect"
import * as BodyLimits from "../middleware/BodyLimits.js"
import * as MediaType from "./MediaType.js"

/**
 * The media types a raw-body operation takes, when more than the one its payload schema names (e.g. the
 * aliases of WAV). Set with `endpoint.annotate(AcceptedMediaTypes, [...])`.
 */
export class AcceptedMediaTypes extends Context.Tag("@voice-agent-platform/http/AcceptedMediaTypes")<
  AcceptedMediaTypes,
  ReadonlyArray<string>
>() {}

/** The largest body an operation takes, in bytes, when not its kind's default. Set with `endpoint.annotate`. */
export class MaxBodyBytes extends Context.Tag("@voice-agent-platform/http/MaxBodyBytes")<
  MaxBodyBytes,
  number
>() {}

/** The limit of a multipart or raw body whose operation declares none: the platform's own default. */
export const defaultMaxUploadBytes = 10 * 1024 * 1024

/** What an operation accepts as its body, and how many bytes of it. */
export type BodyPolicy =
  /** No payload: a body is ignored, never read (the server discards it as it arrives). */
  | { readonly _tag: "None" }
  /** `application/json` and `application/<x>+json`, parameters allowed; no media type means JSON. */
  | { readonly _tag: "Json"; readonly maxBytes: number }
  /** `multipart/form-data`. */
  | { readonly _tag: "Multipart"; readonly maxBytes: number }
  /** A raw body of one of these media types. */
  | { readonly _tag: "Raw"; readonly mediaTypes: ReadonlyArray<string>; readonly maxBytes: number }
  /**
   * One of several kinds, told apart by `Content-Type`: a payload schema that is a union of members of
   * different encodings (JSON, a multipart form, a text body). `select` picks the one a request uses.
   */
  | { readonly _tag: "Choice"; readonly options: ReadonlyArray<SinglePolicy> }

/** A policy of one kind. */
export type SinglePolicy = Exclude<BodyPolicy, { readonly _tag: "Choice" }>

/** The policy of a request that matched no operation: it is answered 404 without its body being read. */
export const none: BodyPolicy = { _tag: "None" }

/**
 * An operation's policy, read from its definition: no payload schema takes no body; a multipart schema
 * (`HttpApiSchema.Multipart`/`MultipartStream`) takes `multipart/form-data` up to its `maxTotalSize`;
 * a `Uint8Array`/`Text` encoding takes its media type (plus `AcceptedMediaTypes`); anything else is JSON
 * up to `BodyLimits.maxJsonBytes`. `MaxBodyBytes` overrides the limit.
 */
export const of = (endpoint: HttpApiEndpoint.HttpApiEndpoint.AnyWithProps): BodyPolicy => {
  if (Option.isNone(endpoint.payloadSchema)) return none
  const ast = endpoint.payloadSchema.value.ast
  const declared = Context.getOption(endpoint.annotations, MaxBodyBytes)
  const extra = Option.getOrElse(Context.getOption(endpoint.annotations, AcceptedMediaTypes), () => [])
  const members = ast._tag === "Union" ? ast.types : [ast]
  const options = members.map((member) => ofMember(member, declared, extra))
  // a union of JSON schemas is one JSON body; members of other encodings make a choice
  return options.every((option) => option._tag === "Json") ? options[0]! : { _tag: "Choice", options }
}

const ofMember = (
  ast: SchemaAST.AST,
  declared: Option.Option<number>,
  extra: ReadonlyArray<string>
): SinglePolicy => {
  const multipart = HttpApiSchema.getMultipart(ast) ?? HttpApiSchema.getMultipartStream(ast)
  if (multipart !== undefined) {
    const total = Option.map(multipart.maxTotalSize ?? Option.none(), Number)
    return {
      _tag: "Multipart",
      maxBytes: Option.getOrElse(
        Option.orElse(declared, () => total),
        () => defaultMaxUploadBytes
      )
    }
  }
  const encoding = HttpApiSchema.getEncoding(ast)
  if (encoding.kind === "Uint8Array" || encoding.kind === "Text") {
    return {
      _tag: "Raw",
      mediaTypes: [...new Set([MediaType.essence(encoding.contentType), ...extra.map(MediaType.essence)])],
      maxBytes: Option.getOrElse(declared, () => defaultMaxUploadBytes)
    }
  }
  return { _tag: "Json", maxBytes: Option.getOrElse(declared, () => BodyLimits.maxJsonBytes) }
}

/** The policy a request with this `Content-Type` falls under: a choice's matching option, else the policy. */
export const select = (policy: BodyPolicy, contentType: string | undefined): BodyPolicy =>
  policy._tag === "Choice" ? (policy.options.find((o) => accepts(o, contentType)) ?? policy) : policy

/** The largest body the policy reads: 0 when it takes none (or the request matched no choice). */
export const maxBytes = (policy: BodyPolicy): number =>
  policy._tag === "None" || policy._tag === "Choice" ? 0 : policy.maxBytes

/** The schema a JSON body of the operation is decoded with: the payload, or its JSON member. */
export const jsonPayload = (
  endpoint: HttpApiEndpoint.HttpApiEndpoint.AnyWithProps
): Option.Option<Schema.Schema.Any> =>
  Option.map(endpoint.payloadSchema, (schema) => {
    const ast = schema.ast
    if (ast._tag !== "Union") return schema
    const json = ast.types.find(
      (member) =>
        HttpApiSchema.getMultipart(member) === undefined &&
        HttpApiSchema.getMultipartStream(member) === undefined &&
        HttpApiSchema.getEncoding(member).kind === "Json"
    )
    return json === undefined ? schema : Schema.make(json)
  })

/** What the policy takes, for a 415's `detail`. */
export const describe = (policy: BodyPolicy): string => {
  switch (policy._tag) {
    case "None":
      return "no body"
    case "Json":
      return "application/json (or application/<type>+json)"
    case "Multipart":
      return "multipart/form-data"
    case "Raw":
      return policy.mediaTypes.join(", ")
    case "Choice":
      return policy.options.map(describe).join(", or ")
  }
}

/**
 * Whether a request's `Content-Type` is one the policy takes. No `Content-Type` is taken as JSON (as the
 * platform reads it); for any other policy it is refused.
 */
export const accepts = (policy: BodyPolicy, contentType: string | undefined): boolean => {
  const mediaType = contentType === undefined ? "" : MediaType.essence(contentType)
  switch (policy._tag) {
    case "None":
      return true
    case "Json":
      return mediaType === "" || MediaType.isJson(mediaType)
    case "Multipart":
      return mediaType === "multipart/form-data"
    case "Raw":
      return policy.mediaTypes.includes(mediaType)
    case "Choice":
      return policy.options.some((option) => accepts(option, contentType))
  }
}
