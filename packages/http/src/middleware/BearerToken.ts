import { Effect, Option, Redacted } from "effect"
import { createHash, timingSafeEqual } from "node:crypto"
import { NotFound, Unauthorized } from "@voice-agent-platform/contract/errors/ApiErrors.js"

const digest = (value: string) => createHash("sha256").update(value).digest()

/**
 * Checks a bearer token against a configured one in constant time (comparing SHA-256 digests, so not even
 * the length leaks). Without a configured token the routes it guards do not exist: 404, as an unknown
 * route would answer; a wrong token is 401 with `invalidDetail`.
 */
export const check = (
  expected: Option.Option<Redacted.Redacted<string>>,
  given: Redacted.Redacted<string>,
  invalidDetail: string
): Effect.Effect<void, Unauthorized | NotFound> =>
  Option.match(expected, {
    onNone: () => Effect.fail(new NotFound({ detail: "Not Found" })),
    onSome: (token) =>
      timingSafeEqual(digest(Redacted.value(given)), digest(Redacted.value(token)))
        ? Effect.void
        : Effect.fail(new Unauthorized({ detail: invalidDetail }))
  })
