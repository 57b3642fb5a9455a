import { Context, Duration, Effect, Layer } from "effect"
import type { OutboundFailureCategory } from "../outbound/OutboundHttp.js"
import { OutboundHttp } from "../outbound/OutboundHttp.js"

/** One POST to a receiver. */
export interface WebhookRequest {
  readonly url: string
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
  readonly timeout: Duration.DurationInput
}

/**
 * What came back: the receiver's status, or the category of why there was no answer (what the
 * delivery log shows; never the raw error).
 */
export type WebhookResponse =
  | { readonly _tag: "Answered"; readonly status: number }
  | { readonly _tag: "NoAnswer"; readonly category: OutboundFailureCategory }

/** The most response-body bytes read from a receiver: its answer is the status, the body is ignored. */
export const maxResponseBytes = 64 * 1024

/** Sends webhook requests: a port so that tests can stand in a receiver. */
export class WebhookSender extends Context.Tag("@voice-agent-platform/core/WebhookSender")<
  WebhookSender,
  { readonly send: (request: WebhookRequest) => Effect.Effect<WebhookResponse> }
>() {}

/**
 * Sends through the outbound client (the one guarded way out): its policy, pinned address, no
 * redirects (a 3xx is an answer like any other), its deadline, at most 64 KiB of the answer read.
 */
export const layer: Layer.Layer<WebhookSender, never, OutboundHttp> = Layer.effect(
  WebhookSender,
  Effect.map(OutboundHttp, (outbound) => ({
    send: (request) =>
      outbound
        .send({
          method: "POST",
          url: request.url,
          headers: request.headers,
          body: request.body,
          timeout: request.timeout,
          maxResponseBytes
        })
        .pipe(
          Effect.map((response): WebhookResponse => ({ _tag: "Answered", status: response.status })),
          Effect.catchTag("OutboundFailure", (failure) =>
            Effect.succeed<WebhookResponse>({ _tag: "NoAnswer", category: failure.category })
          )
        )
  }))
)
