import { LanguageModel } from "@voice-agent-platform/core/language-model/LanguageModel.js"
import type { ModelEvent, ModelRequest } from "@voice-agent-platform/core/language-model/LanguageModel.js"
import {
  type LanguageModelError,
  ModelDeadline,
  ModelUnavailable
} from "@voice-agent-platform/core/language-model/LanguageModelErrors.js"
import { observed } from "@voice-agent-platform/core/language-model/ModelObservation.js"
import { storable } from "@voice-agent-platform/core/language-model/StorableReplies.js"
import * as ModelReplies from "@voice-agent-platform/core/language-model/ModelReplies.js"
import { decodeText } from "@voice-agent-platform/core/language-model/StructuredOutput.js"
import * as ScopedStream from "@voice-agent-platform/core/streams/ScopedStream.js"
import {
  Chunk,
  Config,
  type ConfigError,
  Data,
  Duration,
  Effect,
  Either,
  Layer,
  Option,
  Redacted,
  Stream
} from "effect"
import * as ChatCompletionsReply from "./ChatCompletionsReply.js"
import * as ChatCompletionsRequest from "./ChatCompletionsRequest.js"
import * as ModelTransport from "./ModelTransport.js"
import * as ServerSentEvents from "./ServerSentEvents.js"
import * as StreamedReply from "./StreamedReply.js"

/**
 * The `LanguageModel` port over an OpenAI-compatible Chat Completions server: OpenAI, Groq, Together,
 * vLLM, llama.cpp's `llama-server`, Ollama. `POST {baseUrl}/chat/completions` with Node's `fetch`;
 * streamed replies over server-sent events. The endpoint is the operator's configuration, so it is not a
 * tenant's outbound request (loopback is fine), but every call keeps a deadline and a reply-size cap.
 * See docs/language-models.md.
 */

/** The provider's name in spans, metrics and logs. */
export const provider = "openai"

/** Where the model is and how a call is bounded; every field but the key has a default. */
export interface Options {
  /** Default `https://api.openai.com/v1`: an http(s) URL without credentials; `/chat/completions` is appended. */
  readonly baseUrl?: string
  /** Sent as `Authorization: Bearer …`; none: no header (llama.cpp and Ollama need none). */
  readonly apiKey?: Redacted.Redacted<string> | undefined
  /** The model a request that names none goes to. Default `gpt-4o-mini`. */
  readonly model?: string
  /** The whole call's deadline, from the request until the last byte of the reply. Default 30000. */
  readonly timeoutMs?: number
  /** `max_tokens` when the request names none. Default 1024. */
  readonly maxTokens?: number
  /** The most reply bytes read. Default 8 MiB. */
  readonly maxResponseBytes?: number
  /**
   * The models a request may name (an agent's choice); a request naming another goes to `model`. Default:
   * `model` alone. `any`: whatever a request names.
   */
  readonly allowedModels?: ReadonlyArray<string> | "any" | undefined
}

export const defaults = {
  baseUrl: "https://api.openai.com/v1",
  model: "gpt-4o-mini",
  timeoutMs: 30_000,
  maxTokens: 1024,
  maxResponseBytes: 8 * 1024 * 1024
} as const

/** The longest deadline accepted, in milliseconds (10 minutes). */
export const maxTimeoutMs = 600_000

/** Options that cannot work: a base URL that is not an http(s) URL without credentials, a bound out of range. */
export class InvalidOptions extends Data.TaggedError("InvalidOptions")<{ readonly reason: string }> {
  override get message() {
    return `Invalid language model options: ${this.reason}`
  }
}

/** Whether `value` is an http(s) URL without credentials, query or fragment (a base URL to append paths to). */
export const isBaseUrl = (value: string): boolean => {
  try {
    const url = new URL(value)
    return (
      (url.protocol === "http:" || url.protocol === "https:") &&
      url.username === "" &&
      url.password === "" &&
      url.search === "" &&
      url.hash === ""
    )
  } catch {
    return false
  }
}

const isWholeIn = (value: number, min: number, max: number) =>
  Number.isInteger(value) && value >= min && value <= max

/** The service, its operations traced and counted (`ModelObservation`). */
export const make = (options: Options = {}): Effect.Effect<LanguageModel["Type"], InvalidOptions> =>
  Effect.gen(function* () {
    const baseUrl = options.baseUrl ?? defaults.baseUrl
    const model = options.model ?? defaults.model
    const timeoutMs = options.timeoutMs ?? defaults.timeoutMs
    const maxTokens = options.maxTokens ?? defaults.maxTokens
    const maxResponseBytes = options.maxResponseBytes ?? defaults.maxResponseBytes
    if (!isBaseUrl(baseUrl)) {
      return yield* new InvalidOptions({ reason: "baseUrl must be an http(s) URL without credentials" })
    }
    if (model === "") return yield* new InvalidOptions({ reason: "model is empty" })
    if (!isWholeIn(timeoutMs, 1, maxTimeoutMs)) {
      return yield* new InvalidOptions({
        reason: `timeoutMs must be a whole number from 1 to ${maxTimeoutMs}`
      })
    }
    if (!isWholeIn(maxTokens, 1, 1_000_000)) {
      return yield* new InvalidOptions({ reason: "maxTokens must be a whole number from 1 to 1000000" })
    }
    if (!isWholeIn(maxResponseBytes, 1024, 1024 ** 3)) {
      return yield* new InvalidOptions({
        reason: "maxResponseBytes must be a whole number from 1024 to 1 GiB"
      })
    }
    const endpoint: ModelTransport.Endpoint = {
      url: `${baseUrl.replace(/\/+$/, "")}/chat/completions`,
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        ...(options.apiKey === undefined || Redacted.value(options.apiKey) === ""
          ? {}
          : { authorization: `Bearer ${Redacted.value(options.apiKey)}` })
      },
      maxResponseBytes
    }
    const wire: ChatCompletionsRequest.Defaults = { model, maxTokens }
    // an agent's model is checked when it is chosen; one chosen before the operator's list changed goes to
    // the default model rather than to one the operator no longer allows
    const allowed = options.allowedModels ?? [model]
    const allowedModel = <A extends { readonly model?: string }>(request: A): A =>
      request.model === undefined || allowed === "any" || allowed.includes(request.model)
        ? request
        : { ...request, model: undefined }
    const deadline = new ModelDeadline({ timeout_ms: timeoutMs })
    const withinDeadline = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
      Effect.timeoutFail(effect, { duration: Duration.millis(timeoutMs), onTimeout: () => deadline })

    /** A whole reply's completion: posted, read, parsed. */
    const complete = (body: object, requestedModel: string) =>
      Effect.scoped(
        Effect.gen(function* () {
          const answer = yield* ModelTransport.post(endpoint, JSON.stringify(body), requestedModel)
          const json = yield* parseJson(yield* ModelTransport.text(answer.read))
          return yield* ChatCompletionsReply.completionOf(json)
        })
      )

    const generate = (asked: ModelRequest) => {
      const request = allowedModel(asked)
      return complete(ChatCompletionsRequest.chat(request, wire, false), request.model ?? model).pipe(
        Effect.flatMap(ChatCompletionsReply.replyOf),
        withinDeadline
      )
    }

    // the deadline is one timer aborting the exchange (ModelTransport.post), not a race around the stream
    const stream = (asked: ModelRequest): Stream.Stream<ModelEvent, LanguageModelError> => {
      const request = allowedModel(asked)
      return ScopedStream.unwrapScoped(
        Effect.map(
          ModelTransport.post(
            endpoint,
            JSON.stringify(ChatCompletionsRequest.chat(request, wire, true)),
            request.model ?? model,
            { ms: timeoutMs, error: deadline }
          ),
          (answer) =>
            // a server that ignores `stream: true` answers one JSON completion: it is the same reply
            /\bapplication\/json\b/i.test(answer.contentType)
              ? Stream.fromIterableEffect(
                  ModelTransport.text(answer.read).pipe(
                    Effect.flatMap(parseJson),
                    Effect.flatMap(ChatCompletionsReply.completionOf),
                    Effect.flatMap(ChatCompletionsReply.replyOf),
                    Effect.map(ModelReplies.toEvents)
                  )
                )
              : eventsOf(answer.read)
        )
      )
    }

    const structured: LanguageModel["Type"]["structured"] = (asked) => {
      const request = allowedModel(asked)
      return complete(ChatCompletionsRequest.structured(request, wire), request.model ?? model).pipe(
        Effect.flatMap(ChatCompletionsReply.replyOf),
        Effect.flatMap((reply) =>
          Either.match(decodeText(request.schema, reply.text), {
            onLeft: (why) =>
              Effect.fail(
                new ModelUnavailable({
                  reason:
                    reply.finish_reason === "length"
                      ? `the structured reply was cut off at max_tokens (${request.max_tokens ?? maxTokens}) before it was complete`
                      : `the structured reply is not an object of ${request.name}: ${why}`
                })
              ),
            onRight: (value) => Effect.succeed({ value, usage: reply.usage })
          })
        ),
        withinDeadline
      )
    }

    // what a provider answers is kept as storage can keep it (no NUL, no half surrogate pair)
    return observed(storable({ provider, stream, generate, structured }), { defaultModel: model })
  })

/** The adapter as the `LanguageModel` layer. */
export const layer = (options: Options = {}): Layer.Layer<LanguageModel, InvalidOptions> =>
  Layer.effect(LanguageModel, make(options))

/** `LLM_TIMEOUT_MS` and `LLM_MAX_TOKENS`: a whole number in range, the message naming the variable. */
const wholeNumber = (name: string, fallback: number, max: number) =>
  Config.integer(name).pipe(
    Config.withDefault(fallback),
    Config.validate({
      message: `${name} must be a whole number from 1 to ${max}`,
      validation: (value) => isWholeIn(value, 1, max)
    })
  )

/** `LLM_MAX_TOKENS`: the longest reply in tokens (default 1024), for every provider. */
export const maxTokensConfig: Config.Config<number> = wholeNumber(
  "LLM_MAX_TOKENS",
  defaults.maxTokens,
  1_000_000
)

/**
 * The options from the environment: `LLM_BASE_URL` (default the OpenAI API), `LLM_API_KEY` (none: no
 * `Authorization`), `LLM_MODEL` (default `gpt-4o-mini`), `LLM_TIMEOUT_MS` (30000), `LLM_MAX_TOKENS` (1024).
 */
export const config: Config.Config<Options> = Config.all({
  baseUrl: Config.nonEmptyString("LLM_BASE_URL").pipe(
    Config.withDefault(defaults.baseUrl),
    Config.validate({
      message: "LLM_BASE_URL must be an http(s) URL without credentials, e.g. http://127.0.0.1:8080/v1",
      validation: isBaseUrl
    })
  ),
  apiKey: Config.option(Config.redacted("LLM_API_KEY")).pipe(
    Config.map(Option.filter((key) => Redacted.value(key) !== "")),
    Config.map(Option.getOrUndefined)
  ),
  model: Config.nonEmptyString("LLM_MODEL").pipe(Config.withDefault(defaults.model)),
  allowedModels: Config.string("LLM_ALLOWED_MODELS").pipe(
    Config.withDefault(""),
    Config.map((names) =>
      names
        .split(",")
        .map((name) => name.trim())
        .filter((name) => name !== "")
    ),
    // unset: the default model alone (`make` takes `model`); `*`: any name
    Config.map((names): ReadonlyArray<string> | "any" | undefined =>
      names.length === 0 ? undefined : names.includes("*") ? "any" : names
    )
  ),
  timeoutMs: wholeNumber("LLM_TIMEOUT_MS", defaults.timeoutMs, maxTimeoutMs),
  maxTokens: maxTokensConfig
})

/** The adapter configured from the environment (see `config`). */
export const layerConfig: Layer.Layer<LanguageModel, ConfigError.ConfigError | InvalidOptions> =
  Layer.unwrapEffect(Effect.map(config, layer))

const parseJson = (text: string): Effect.Effect<unknown, ModelUnavailable> =>
  Effect.try({
    try: () => JSON.parse(text) as unknown,
    catch: () => new ModelUnavailable({ reason: "the provider's reply is not JSON" })
  })

/**
 * A `text/event-stream` body as the port's events: each network read is decoded, cut into server-sent
 * events, parsed as chunks and put back together in one step, and its events passed on as one chunk of
 * the stream (a read that completes no event passes on an empty one): one stream element per read, not
 * one per operator per event, which was most of a streamed reply's processor time. Reading stops at
 * `data: [DONE]`; the reply's closing events follow the last read. Events before a fault are passed on,
 * then the fault.
 */
const eventsOf = (
  read: Effect.Effect<Uint8Array | null, LanguageModelError>
): Stream.Stream<ModelEvent, LanguageModelError> =>
  Stream.suspend(() => {
    const decoder = new TextDecoder()
    let parser = ServerSentEvents.initial
    let assembly = StreamedReply.initial
    let sawDone = false
    let ended = false
    let failure: LanguageModelError | null = null
    /** Adds the events of some server-sent events' data to `events`, until the first fault (kept in `failure`). */
    const add = (data: ReadonlyArray<string>, events: Array<ModelEvent>) => {
      for (const event of data) {
        const trimmed = event.trim()
        // an empty event carries nothing (some servers send one to keep the connection alive)
        if (sawDone || trimmed === "") continue
        if (trimmed === "[DONE]") {
          sawDone = true
          continue
        }
        let json: unknown
        try {
          json = JSON.parse(event)
        } catch {
          failure = new ModelUnavailable({ reason: "the provider's stream held an event that is not JSON" })
          return
        }
        const added = Either.flatMap(ChatCompletionsReply.chunkOf(json), (chunk) =>
          StreamedReply.add(assembly, chunk)
        )
        if (Either.isLeft(added)) {
          failure = added.left
          return
        }
        assembly = added.right[0]
        events.push(...added.right[1])
      }
    }
    /** The events one network read completes (and the closing ones after the last read). */
    const next = (bytes: Uint8Array | null): Array<ModelEvent> => {
      const events: Array<ModelEvent> = []
      const [fed, data] = ServerSentEvents.feed(
        parser,
        bytes === null ? decoder.decode() : decoder.decode(bytes, { stream: true })
      )
      parser = fed
      add(bytes === null ? [...data, ...ServerSentEvents.end(fed)] : data, events)
      if (failure === null && (bytes === null || sawDone)) {
        ended = true
        const closing = StreamedReply.end(assembly, sawDone)
        if (Either.isLeft(closing)) failure = closing.left
        else events.push(...closing.right)
      }
      return events
    }
    const pull: Effect.Effect<Chunk.Chunk<ModelEvent>, Option.Option<LanguageModelError>> = Effect.suspend(
      () => {
        if (failure !== null) return Effect.fail(Option.some(failure))
        if (ended) return Effect.fail(Option.none())
        return Effect.flatMap(Effect.mapError(read, Option.some), (bytes) => {
          const events = next(bytes)
          // the events before a fault go first; the fault is the next pull's
          if (failure !== null && events.length === 0) return Effect.fail(Option.some(failure))
          return Effect.succeed(Chunk.unsafeFromArray(events))
        })
      }
    )
    return Stream.repeatEffectChunkOption(pull)
  })
