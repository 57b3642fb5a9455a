import type { SessionOptions } from "@voice-agent-platform/core/voice/SpeechToText.js"
import {
  type SpeechToTextError,
  SpeechToTextRefused,
  SpeechToTextUnavailable
} from "@voice-agent-platform/core/voice/SpeechToTextErrors.js"

/**
 * The address of a live session and what a refused opening means. Deepgram's query parameters:
 * `encoding` (`mulaw`, `linear16`), `sample_rate`, `channels`, `interim_results`, `endpointing` (ms of
 * silence that mark `speech_final`), `utterance_end_ms` (ms without words before `UtteranceEnd`; needs
 * `interim_results`), `language` and, when chosen, `model`.
 */

/** The listening choices that are the operator's rather than the session's. */
export interface ListenChoices {
  readonly endpointingMs: number
  readonly utteranceEndMs: number
  /** Deepgram's model (`nova-2`, `nova-3`); none: Deepgram's default. */
  readonly model?: string | undefined
}

/** Whether `value` is a ws(s) URL without credentials, query or fragment (the listen endpoint). */
export const isListenUrl = (value: string): boolean => {
  try {
    const url = new URL(value)
    return (
      (url.protocol === "ws:" || url.protocol === "wss:") &&
      url.username === "" &&
      url.password === "" &&
      url.search === "" &&
      url.hash === ""
    )
  } catch {
    return false
  }
}

/** `{base}?encoding=…&sample_rate=…&channels=1&interim_results=true&endpointing=…&utterance_end_ms=…&language=…`. */
export const listenUrl = (base: string, session: SessionOptions, choices: ListenChoices): string => {
  const url = new URL(base)
  const query = url.searchParams
  query.set("encoding", session.encoding)
  query.set("sample_rate", String(session.sample_rate))
  query.set("channels", "1")
  query.set("interim_results", "true")
  query.set("endpointing", String(choices.endpointingMs))
  query.set("utterance_end_ms", String(choices.utteranceEndMs))
  query.set("language", session.language)
  if (choices.model !== undefined && choices.model !== "") query.set("model", choices.model)
  return url.toString()
}

/** The error of an opening the provider answered with `status` instead of switching protocols. */
export const refusal = (status: number, session: SessionOptions): SpeechToTextError => {
  if (status === 401) {
    return new SpeechToTextRefused({
      reason: "the provider did not accept the API key (401): check DEEPGRAM_API_KEY",
      status
    })
  }
  if (status === 403) {
    return new SpeechToTextRefused({
      reason: "the provider denied access (403): check that DEEPGRAM_API_KEY may use live streaming",
      status
    })
  }
  if (status === 400) {
    return new SpeechToTextRefused({
      reason: `the provider refused the session's options (400): check the language ${JSON.stringify(session.language.slice(0, 35))}, the model and the audio format (${session.encoding}, ${session.sample_rate} Hz)`,
      status
    })
  }
  if (status === 402) {
    return new SpeechToTextUnavailable({
      reason: "the provider's account has no credit left (402): check its plan and billing"
    })
  }
  if (status === 429) {
    return new SpeechToTextUnavailable({
      reason: "the provider is limiting sessions (429): too many at once"
    })
  }
  if (status >= 300 && status < 400) {
    return new SpeechToTextUnavailable({
      reason: `the provider redirected the connection (${status}): set DEEPGRAM_URL to the address it redirects to`
    })
  }
  if (status >= 500) return new SpeechToTextUnavailable({ reason: `the provider failed (${status})` })
  return new SpeechToTextUnavailable({ reason: `the provider answered an unexpected status (${status})` })
}

/** A close reason safe to repeat (Deepgram's codes such as `NET-0001`, `DATA-0000`); anything else dropped. */
export const closeReason = (reason: string): string | null =>
  /^[A-Za-z0-9_.-]{1,32}$/.test(reason) ? reason : null
