import { Context, Duration, Effect, Layer } from "effect"

/** One POST to a receiver. */
export interface WebhookRequest {
  readonly url: string
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
  readonly timeout: Duration.DurationInput
}

/** What came back: the receiver's status, or why there was no answer (network error, timeout). */
export type WebhookResponse =
  | { readonly _tag: "Answered"; readonly status: number }
  | { readonly _tag: "NoAnswer"; readonly error: string }

/** Sends webhook requests: a port so that tests can stand in a receiver and hosts choose the transport. */
export class WebhookSender extends Context.Tag("@voice-agent-platform/core/WebhookSender")<
  WebhookSender,
  { readonly send: (request: WebhookRequest) => Effect.Effect<WebhookResponse> }
>() {}

/** Sends with the `fetch` global; redirects are not followed (a 3xx is an answer like any other). */
export const layerFetch: Layer.Layer<WebhookSender> = Layer.succeed(WebhookSender, {
  send: (request) =>
    Effect.tryPromise({
      try: async (signal) => {
        const response = await globalThis.fetch(request.url, {
          method: "POST",
          headers: request.headers,
          body: request.body,
          redirect: "manual",
          signal: AbortSignal.any([signal, AbortSignal.timeout(Duration.toMillis(request.timeout))])
        })
        // The body does not matter; reading it frees the connection.
        await response.arrayBuffer().catch(() => undefined)
        return { _tag: "Answered", status: response.status } as const
      },
      catch: (error) => error
    }).pipe(
      Effect.catchAll((error) =>
        Effect.succeed({
          _tag: "NoAnswer",
          error: error instanceof Error ? `${error.name}: ${error.message}` : String(error)
        } as const)
      )
    )
})
