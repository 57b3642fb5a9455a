/**
 * The shared LanguageModel contract, run against the embedded model. Written against the suite's
 * announced API — `languageModelContract(name, { layer, prepare })`, where `prepare(kind)` answers the
 * request that provokes each kind of reply ("text", "tool_call", "structured") — before the suite
 * (`packages/core/testing/LanguageModelContract.ts`) was merged: adapt the names here if it differs.
 */
import * as CallAnalysis from "../../../src/analysis/CallAnalysis.js"
import * as EmbeddedModel from "../../../src/language-model/embedded/EmbeddedModel.js"
import type { ModelRequest, StructuredRequest } from "../../../src/language-model/LanguageModel.js"
import { languageModelContract } from "../../../testing/LanguageModelContract.js"
import { analysisSchema, checkOrder, clinic, endCall } from "./EmbeddedFixtures.js"

const opening = { role: "assistant" as const, content: clinic.first_message }

/** A request the embedded model answers in text: a question its FAQ answers. */
const text: ModelRequest = {
  guide: clinic,
  tools: [checkOrder, endCall],
  messages: [
    { role: "system", content: "You are Ann, the clinic's assistant." },
    opening,
    { role: "user", content: "What are your opening hours?" }
  ]
}

/** A request the embedded model answers with a call: the user says `check_order`'s trigger phrase. */
const toolCall: ModelRequest = {
  guide: clinic,
  tools: [checkOrder, endCall],
  messages: [opening, { role: "user", content: "Where is my order A-17?" }]
}

/** A structured request the embedded model answers: the analysis of a short call. */
const structured: StructuredRequest<CallAnalysis.Analysis, unknown> = {
  name: CallAnalysis.name,
  schema: analysisSchema(clinic.data_fields, clinic.disposition_codes),
  messages: [{ role: "user", content: "Analyse the conversation." }],
  guide: {
    ...clinic,
    transcripts: [
      {
        run_id: 1,
        turns: [
          { role: "assistant", text: clinic.first_message },
          { role: "user", text: "Yes, I confirm the visit. My email is ann@example.com." },
          { role: "assistant", text: "Thank you for your time. Goodbye!" }
        ]
      }
    ]
  }
}

languageModelContract("embedded", {
  layer: EmbeddedModel.layer,
  prepare: (kind: "text" | "tool_call" | "structured") =>
    kind === "text" ? text : kind === "tool_call" ? toolCall : structured
})
