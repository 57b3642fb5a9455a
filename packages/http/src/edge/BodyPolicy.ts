import type { HttpApiEndpoint } from "@effect/platform"
import { HttpApiSchema } from "@effect/platform"
import { Context, Option } from "effect"
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
    const extra = Option.getOrElse(Context.getOption(endpoint.annotations, AcceptedMediaTypes), () => [])
    return {
      _tag: "Raw",
      mediaTypes: [...new Set([MediaType.essence(encoding.contentType), ...extra.map(MediaType.essence)])],
      maxBytes: Option.getOrElse(declared, () => defaultMaxUploadBytes)
    }
  }
  return { _tag: "Json", maxBytes: Option.getOrElse(declared, () => BodyLimits.maxJsonBytes) }
}

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
  }
}
