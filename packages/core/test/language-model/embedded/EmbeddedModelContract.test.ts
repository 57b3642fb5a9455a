/**
 * The shared LanguageModel contract, run against the embedded model: each provocation becomes a
 * conversation whose guide makes the model's rules answer as provoked (its first message, a trigger
 * phrase with the argument said, a transcript that says the values).
 */
import { Effect } from "effect"
import { emptyGuide } from "../../../src/language-model/LanguageModel.js"
import * as EmbeddedModel from "../../../src/language-model/embedded/EmbeddedModel.js"
import type { Prepared, Provocation } from "../../../testing/LanguageModelContract.js"
import { languageModelContract } from "../../../testing/LanguageModelContract.js"

const prepare = (provocation: Provocation): Effect.Effect<Prepared> =>
  Effect.succeed(
    provocation._tag === "Text"
      ? // nothing said yet: the model opens with the first message
        {
          messages: [{ role: "system", content: "You are Ada." }],
          guide: { ...emptyGuide, first_message: provocation.text }
        }
      : provocation._tag === "ToolCall"
        ? {
            messages: [
              { role: "assistant", content: "Hello, this is Ada." },
              {
                role: "user",
                content: `Please send me the brochure, my email is ${String(provocation.arguments["email"])}`
              }
            ],
            guide: {
              ...emptyGuide,
              first_message: "Hello, this is Ada.",
              triggers: { [provocation.tool.name]: ["brochure"] }
            }
          }
        : {
            messages: [{ role: "user", content: "Analyse the conversation." }],
            guide: {
              ...emptyGuide,
              data_fields: provocation.data_fields,
              disposition_codes: provocation.disposition_codes,
              transcripts: [
                {
                  run_id: 1,
                  turns: [
                    { role: "assistant", text: "Hello, this is Ada. Would you like our brochure?" },
                    {
                      role: "user",
                      text: `Yes, please send me the brochure. My email is ${String(provocation.value.gathered_data["email"])}.`
                    },
                    { role: "assistant", text: "I will send it. Goodbye!" }
                  ]
                }
              ]
            }
          }
  )

languageModelContract("embedded", { layer: EmbeddedModel.layer, prepare })
