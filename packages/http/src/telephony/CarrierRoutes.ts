import { HttpApiBuilder, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { CarrierCallbacks, RunId } from "@voice-agent-platform/core"
import { Effect } from "effect"
import * as BodyStream from "../edge/BodyStream.js"
import * as EdgeRequest from "../edge/EdgeRequest.js"

/**
 * The carrier's webhooks, outside the API (no API key: the carrier signs them instead, and
 * `CarrierCallbacks` checks the signature before anything else): `POST /telephony/{provider}/answer/{run}`
 * (answered with the document that connects the call's audio to the run's media socket) and
 * `POST /telephony/{provider}/status/{run}` (the call's progress; 204). Form bodies of at most
 * `maxBodyBytes` (413 past it). A missing or wrong signature is 403 and changes nothing; a body that is not a status
 * callback 400; a status callback for an unknown run 404. A signed answer for a run that ended or does not
 * exist is answered 200 with the carrier's hang-up document (`<Response><Hangup/></Response>`): an error
 * there would have the carrier play its error message to the callee.
 */

/** The largest webhook body read: Twilio's are about a kilobyte. */
export const maxBodyBytes = 64 * 1024

const detail = (status: number, text: string) => HttpServerResponse.unsafeJson({ detail: text }, { status })

/** The run id of the path's last segment, or null. */
const runIdOf = (url: string): number | null => {
  const match = /\/([1-9][0-9]{0,15})$/.exec(new URL(url, "http://path.invalid").pathname)
  const id = match === null ? NaN : Number(match[1])
  return Number.isSafeInteger(id) ? id : null
}

export const layer = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function* () {
    const callbacks = yield* CarrierCallbacks.CarrierCallbacks
    const webhook = <A>(
      kind: "answer" | "status",
      handle: (
        runId: RunId.RunId,
        hook: { url: string; params: ReadonlyArray<readonly [string, string]>; signature: string | null }
      ) => Effect.Effect<A, { readonly _tag: string; readonly message: string }>,
      answer: (a: A) => HttpServerResponse.HttpServerResponse
    ) =>
      router.post(
        `/telephony/${callbacks.provider}/${kind}/:run_id`,
        Effect.gen(function* () {
          const request = yield* HttpServerRequest.HttpServerRequest
          const runId = runIdOf(request.url)
          if (runId === null) return detail(404, "Not Found")
          // not one of the API's operations: the edge reads no body for it, so the form is read here, bounded
          const raw = request instanceof EdgeRequest.EdgeRequest ? request.inner : request
          const body = yield* Effect.orElseSucceed(BodyStream.collect(raw, maxBodyBytes), () => null)
          if (body === null) return detail(400, "The body could not be read")
          const params = [...new URLSearchParams(new TextDecoder().decode(body)).entries()]
          const signature = request.headers["x-twilio-signature"] ?? null
          return yield* handle(RunId.RunId.make(runId), { url: request.url, params, signature }).pipe(
            Effect.map(answer),
            Effect.catchAll((error) => {
              switch (error._tag) {
                case "InvalidCarrierSignature":
                  return Effect.succeed(detail(403, error.message))
                case "InvalidCarrierCallback":
                  return Effect.succeed(detail(400, error.message))
                case "RunNotFound":
                  return Effect.succeed(detail(404, error.message))
                case "CallAlreadyEnded":
                  return Effect.succeed(detail(409, error.message))
                default:
                  return Effect.die(error)
              }
            })
          )
        })
      )
    yield* webhook("answer", callbacks.answer, (document) =>
      HttpServerResponse.text(document.body, { contentType: document.content_type })
    )
    yield* webhook("status", callbacks.status, () => HttpServerResponse.empty({ status: 204 }))
  })
)
