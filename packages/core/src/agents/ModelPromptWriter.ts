import { Effect, Layer } from "effect"
import { LanguageModel } from "../language-model/LanguageModel.js"
import * as CodePoints from "../text/CodePoints.js"
import { limits } from "./DefinitionChanges.js"
import { PromptWriter } from "./PromptWriter.js"
import { PromptWriterFailure } from "./AgentErrors.js"

/**
 * `generate_with_ai` over the deployment's language model: the model is given the call script and the
 * composed prompt (its sections, facts and phrases) and asked to rewrite the prompt as one coherent set of
 * instructions that keeps every fact, phrase and data field. An empty answer, or one past the prompt bound,
 * fails (the composed prompt stands). The embedded rule-based model writes no prose, so a deployment on it
 * keeps the composed prompt: provide this writer only with a real model. The tokens of every reply (kept or
 * refused) are answered for the organization's ledger.
 */
export const make = Effect.map(LanguageModel, (model) =>
  PromptWriter.of({
    writeSystemPrompt: ({ draft, request }) =>
      model
        .generate({
          messages: [
            {
              role: "system",
              content: [
                "You write system prompts for AI agents that talk with people on the phone.",
                "Rewrite the draft prompt below as one coherent set of instructions to the agent, in the language of the script.",
                "Keep every fact, required phrase, objection reply, topic to avoid and piece of data to gather; add nothing that is not in the script.",
                "Answer with the prompt only, without any preamble."
              ].join(" ")
            },
            {
              role: "user",
              content: `The call script:\n${JSON.stringify(request.agent, null, 2)}\n\nThe draft prompt:\n${draft.system_prompt}`
            }
          ]
        })
        .pipe(
          Effect.mapError((error) => new PromptWriterFailure({ reason: error.message })),
          Effect.flatMap(({ text, usage }) => {
            const prompt = text.trim()
            if (prompt === "")
              return Effect.fail(new PromptWriterFailure({ reason: "the model wrote nothing", usage }))
            if (prompt.length > limits.systemPromptChars) {
              return Effect.fail(
                new PromptWriterFailure({
                  reason: `the model wrote ${prompt.length} characters, more than a prompt may have (${limits.systemPromptChars}): ${CodePoints.cut(prompt, 80)}…`,
                  usage
                })
              )
            }
            return Effect.succeed({ system_prompt: prompt, usage })
          })
        )
  })
)

/** The prompt writer over the `LanguageModel` from the environment. */
export const layer = Layer.effect(PromptWriter, make)
