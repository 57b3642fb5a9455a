/**
 * What a test tells the fake OpenAI-compatible server to answer, and what the server recorded. Plain
 * JSON both ways: the control API (`/__fake/…`) carries these shapes as they are. Every answer is used
 * once, in the order queued, by the next request that is not a control request.
 */

/** What every answer but `hang` may set: the status (default 200), extra headers, a wait before answering. */
export interface AnswerHead {
  readonly status?: number
  readonly headers?: Readonly<Record<string, string>>
  /** Milliseconds before the head is sent. */
  readonly delay_ms?: number
}

/** A reply as a model would give it; the server writes it as the request asks (SSE with `stream: true`, else JSON). */
export interface ScriptedReply {
  readonly content?: string
  readonly tool_calls?: ReadonlyArray<{
    readonly id?: string
    readonly name: string
    readonly arguments: string
  }>
  /** A refusal instead of content (structured output's `message.refusal`). */
  readonly refusal?: string
  /** Default: `tool_calls` when there are calls, else `stop`. */
  readonly finish_reason?: string
  /** Default: the words of the prompt and of the reply. Sent in a stream only when `stream_options.include_usage`. */
  readonly usage?: { readonly prompt_tokens: number; readonly completion_tokens: number }
}

/** How a reply is cut into stream chunks. */
export interface Fragmenting {
  /** Characters per text delta and per arguments fragment; default: text by words, arguments 8 at a time. */
  readonly piece?: number
  /** Whether fragments of several calls take turns (call 0, call 1, call 0, …) instead of one call after the other. */
  readonly interleave?: boolean
}

export type ScriptedAnswer =
  /** A JSON body (a completion, an error object, or anything malformed). */
  | (AnswerHead & { readonly kind: "json"; readonly body: unknown })
  /**
   * A `text/event-stream`: an object event is written `data: <JSON>` and a blank line; a string is
   * written as it is (comments, a field split in two, malformed data). `[DONE]` follows unless `done`
   * is false. With `hang_after` the server stops after that many events and keeps the connection open.
   */
  | (AnswerHead & {
      readonly kind: "sse"
      readonly events: ReadonlyArray<unknown>
      readonly event_delay_ms?: number
      readonly done?: boolean
      readonly hang_after?: number
    })
  /** Text written as it is, one write per chunk (`event_delay_ms` apart); content type from `headers`. */
  | (AnswerHead & {
      readonly kind: "raw"
      readonly chunks: ReadonlyArray<string>
      readonly event_delay_ms?: number
    })
  /** A model's reply, streamed or whole as the request asks. */
  | (AnswerHead & ScriptedReply & Fragmenting & { readonly kind: "reply"; readonly event_delay_ms?: number })
  /** Never answers (the connection stays open until the client gives up). */
  | { readonly kind: "hang" }
  /** A 200 reply of `bytes` bytes of text (streamed or whole as the request asks). */
  | (AnswerHead & { readonly kind: "oversized"; readonly bytes: number })

/** A request the server received (control requests aside). */
export interface RecordedRequest {
  readonly method: string
  readonly path: string
  /** Lower-case names. */
  readonly headers: Readonly<Record<string, string>>
  /** The parsed JSON body, or the text when it is not JSON. */
  readonly body: unknown
  /** Whether the client closed the connection before the answer was complete (an abort). */
  readonly client_closed: boolean
}
