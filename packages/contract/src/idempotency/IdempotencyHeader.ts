import * as IdempotencyKey from "@voice-agent-platform/core/idempotency/IdempotencyKey.js"
import * as IdempotencyRecord from "@voice-agent-platform/core/idempotency/IdempotencyRecord.js"
import * as IdempotencyRule from "@voice-agent-platform/core/idempotency/IdempotencyRule.js"
import { Schema } from "effect"

/** The header a repeated request's answer carries: it is the first request's answer, sent again. */
export const replayedHeader = "Idempotency-Replayed"

const headerDescription = `Makes the request safe to retry. The first request with a key runs; for 24 hours a repeat with the same key and the same body (and path) gets the first answer again, with the same status and body and the header \`${replayedHeader}: true\`, and does nothing. Once the call it placed is deleted, the kept answer is erased with it: the key then answers 404 \`{detail}\` to any request, and places nothing. The same key with another body is 422 at \`["header","Idempotency-Key"]\`; while the first request is still running, 409. Answers that a retry may change (409, 429, 5xx) are not kept, so retrying them with the same key runs the request again; so does a retry ${IdempotencyRecord.defaultTtl.leaseSeconds} s after a first request that never answered. Keys are per organization; ${IdempotencyKey.keyLength.min} to ${IdempotencyKey.keyLength.max} printable ASCII characters, e.g. a UUID.`

/**
 * The optional `Idempotency-Key` header. Node hands headers over in lower case; they are decoded to the
 * header's own spelling, so that a malformed key is a 422 at `["header","Idempotency-Key"]`, the same
 * place as a reused one.
 */
export const IdempotencyKeyHeader = Schema.transform(
  Schema.Struct({
    "idempotency-key": Schema.optionalWith(
      Schema.String.annotations({
        description: headerDescription,
        jsonSchema: {
          minLength: IdempotencyKey.keyLength.min,
          maxLength: IdempotencyKey.keyLength.max,
          pattern: IdempotencyKey.keyPattern.source
        }
      }),
      { exact: true }
    )
  }),
  Schema.Struct({
    "Idempotency-Key": Schema.optionalWith(IdempotencyKey.IdempotencyKey, { exact: true })
  }),
  {
    strict: true,
    decode: ({ "idempotency-key": key }) => (key === undefined ? {} : { "Idempotency-Key": key }),
    encode: ({ "Idempotency-Key": key }) => (key === undefined ? {} : { "idempotency-key": key })
  }
)

/**
 * Documents an idempotent endpoint in the OpenAPI document: the header parameter under its own spelling,
 * the `Idempotency-Replayed` header on every answer that may be a replay, and what a 409 means for a
 * key.
 */
export const document = (operation: Record<string, any>): Record<string, any> => {
  // the parameter is named as the header is written, not as Node hands it over
  for (const parameter of (operation.parameters ?? []) as Array<Record<string, unknown>>) {
    if (parameter.in === "header" && parameter.name === "idempotency-key") parameter.name = "Idempotency-Key"
  }
  const responses = operation.responses as Record<string, Record<string, any>>
  for (const [status, response] of Object.entries(responses)) {
    if (!IdempotencyRule.isFinal(Number(status)) || status === "401") continue
    response.headers = {
      ...response.headers,
      [replayedHeader]: {
        description:
          "`true` when this is the kept answer of an earlier request with the same Idempotency-Key",
        schema: { type: "string", enum: ["true"] }
      }
    }
  }
  // A reused key's 422 is described with the header instead: ValidationResponses.documentAs422 gives
  // every operation the same 422 description.
  const conflict = responses["409"]
  if (conflict !== undefined) {
    conflict.description = `${conflict.description}; or a request with the same Idempotency-Key is still running`
  }
  return operation
}
