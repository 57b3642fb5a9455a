import { Effect, Layer, Option, Ref, Schema, Stream } from "effect"
import type { ModelReply, ModelRequest, StructuredRequest } from "../../src/language-model/LanguageModel.js"
import { LanguageModel } from "../../src/language-model/LanguageModel.js"
import type { LanguageModelError } from "../../src/language-model/LanguageModelErrors.js"
import * as ModelReplies from "../../src/language-model/ModelReplies.js"

/**
 * A language model for tests: it answers from a script, in order (a reply, a structured value, or an
 * error), and keeps every request it was sent. A streamed reply comes word by word. An empty script answers
 * "OK." (and fails a structured request).
 */
export type Scripted =
  | { readonly _tag: "Reply"; readonly reply: ModelReply }
  | { readonly _tag: "Object"; readonly value: unknown }
  | { readonly _tag: "Fail"; readonly error: LanguageModelError }
  /** Fails after streaming `text` (a reply cut in the middle). */
  | { readonly _tag: "FailAfter"; readonly text: string; readonly error: LanguageModelError }
  /** Never answers (a model that hangs). */
  | { readonly _tag: "Never" }

export interface Sent {
  readonly kind: "stream" | "generate" | "structured"
  readonly request: ModelRequest | StructuredRequest<unknown, unknown>
}

export class ModelScript extends Effect.Service<ModelScript>()("test/ModelScript", {
  effect: Effect.gen(function* () {
    const script = yield* Ref.make<ReadonlyArray<Scripted>>([])
    const sent = yield* Ref.make<ReadonlyArray<Sent>>([])
    return {
      script,
      sent,
      /** Adds answers to the script. */
      push: (...answers: ReadonlyArray<Scripted>) => Ref.update(script, (all) => [...all, ...answers]),
      /** The requests sent so far. */
      requests: Ref.get(sent)
    }
  })
}) {}

/** A text reply with the given usage. */
export const text = (content: string, usage = { prompt_tokens: 10, completion_tokens: 5 }): Scripted => ({
  _tag: "Reply",
  reply: { text: content, tool_calls: [], usage, finish_reason: "stop" }
})

/** A reply that calls functions (`[name, arguments]`), with optional text. */
export const calls = (
  functions: ReadonlyArray<readonly [string, Record<string, unknown>]>,
  content = "",
  usage = { prompt_tokens: 10, completion_tokens: 5 }
): Scripted => ({
  _tag: "Reply",
  reply: {
    text: content,
    tool_calls: functions.map(([name, args], i) => ({
      id: `call_${name}_${i}`,
      name,
      arguments: JSON.stringify(args)
    })),
    usage,
    finish_reason: "tool_calls"
  }
})

export const object = (value: unknown): Scripted => ({ _tag: "Object", value })
export const fail = (error: LanguageModelError): Scripted => ({ _tag: "Fail", error })
export const never: Scripted = { _tag: "Never" }

const next = (script: ModelScript) =>
  Ref.modify(script.script, (all): readonly [Option.Option<Scripted>, ReadonlyArray<Scripted>] =>
    all.length === 0 ? [Option.none(), all] : [Option.some(all[0]!), all.slice(1)]
  )

/** The scripted model over a `ModelScript` from the environment. */
export const layer = Layer.effect(
  LanguageModel,
  Effect.map(ModelScript, (script) => {
    const record = (kind: Sent["kind"], request: Sent["request"]) =>
      Ref.update(script.sent, (all) => [...all, { kind, request }])
    const reply = Effect.map(
      next(script),
      Option.getOrElse((): Scripted => text("OK."))
    )
    return LanguageModel.of({
      provider: "scripted",
      stream: (request) =>
        Stream.unwrap(
          Effect.gen(function* () {
            yield* record("stream", request)
            const answer = yield* reply
            switch (answer._tag) {
              case "Never":
                return Stream.never
              case "Fail":
                return Stream.fail(answer.error)
              case "FailAfter":
                return Stream.concat(
                  Stream.make({ _tag: "TextDelta" as const, text: answer.text }),
                  Stream.fail(answer.error)
                )
              case "Object":
                return Stream.fromIterable(
                  ModelReplies.toEvents(
                    ModelReplies.finish({ ...ModelReplies.empty, text: JSON.stringify(answer.value) })
                  )
                )
              case "Reply": {
                const words = answer.reply.text.split(/(?<= )/).filter((w) => w !== "")
                return Stream.fromIterable([
                  ...words.map((w) => ({ _tag: "TextDelta" as const, text: w })),
                  ...ModelReplies.toEvents({ ...answer.reply, text: "" })
                ])
              }
            }
          })
        ),
      generate: (request) =>
        Effect.gen(function* () {
          yield* record("generate", request)
          const answer = yield* reply
          if (answer._tag === "Fail" || answer._tag === "FailAfter") return yield* Effect.fail(answer.error)
          if (answer._tag === "Never") return yield* Effect.never
          if (answer._tag === "Object")
            return ModelReplies.finish({ ...ModelReplies.empty, text: JSON.stringify(answer.value) })
          return answer.reply
        }),
      structured: (request) =>
        Effect.gen(function* () {
          yield* record("structured", request as StructuredRequest<unknown, unknown>)
          const answer = yield* reply
          if (answer._tag === "Fail" || answer._tag === "FailAfter") return yield* Effect.fail(answer.error)
          if (answer._tag === "Never") return yield* Effect.never
          if (answer._tag !== "Object")
            return yield* Effect.dieMessage("the script has no object for a structured request")
          return {
            value: Schema.decodeUnknownSync(request.schema)(answer.value),
            usage: { prompt_tokens: 100, completion_tokens: 20 }
          }
        })
    })
  })
).pipe(Layer.provideMerge(ModelScript.Default))
