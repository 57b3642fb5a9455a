import { Context, Effect, Layer } from "effect"
import type { RunId } from "../runs/RunId.js"
import * as StreamToken from "./StreamToken.js"

/**
 * Where a carrier reaches this deployment for a run's call, all under `PUBLIC_BASE_URL` (the address every
 * server behind it answers to): the answer webhook, the status webhook and the media socket, whose path
 * carries a short-lived `StreamToken` (carriers strip query strings). `http` gives `ws`, `https` `wss`.
 * The webhooks' signatures are checked against these same URLs, never the proxy's view of the request.
 */

/** How long a media socket's token is good for after the answer webhook: the carrier connects at once. */
export const streamTokenSeconds = 120

export interface Addresses {
  /** `PUBLIC_BASE_URL` without a trailing slash (`https://voice.example.com` or with a path prefix). */
  readonly publicBaseUrl: string
  /** The media tokens' secret (at least `StreamToken.minimumSecretBytes`), the same on every server. */
  readonly streamSecret: Uint8Array
  /** The carrier account a media stream's `start` must name (Twilio's AccountSid); null checks none. */
  readonly account: string | null
}

export class CarrierAddresses extends Context.Tag("@voice-agent-platform/core/CarrierAddresses")<
  CarrierAddresses,
  Addresses
>() {}

/** The path of a carrier's routes: `/telephony/{provider}/{kind}/{run}`. */
export const path = (provider: string, kind: "answer" | "status" | "stream", runId: RunId | number) =>
  `/telephony/${provider}/${kind}/${runId}`

export const answerUrl = (addresses: Addresses, provider: string, runId: RunId | number) =>
  `${addresses.publicBaseUrl}${path(provider, "answer", runId)}`

export const statusUrl = (addresses: Addresses, provider: string, runId: RunId | number) =>
  `${addresses.publicBaseUrl}${path(provider, "status", runId)}`

/** The media socket's URL with a fresh token until `now + streamTokenSeconds`. */
export const streamUrl = (addresses: Addresses, provider: string, runId: RunId | number, now: Date) =>
  Effect.map(
    StreamToken.make(runId, new Date(now.getTime() + streamTokenSeconds * 1000), addresses.streamSecret),
    (token) => `${addresses.publicBaseUrl.replace(/^http/, "ws")}${path(provider, "stream", runId)}/${token}`
  )

/** The addresses from `PUBLIC_BASE_URL` and the secret's text (UTF-8); a short secret is a defect. */
export const make = (publicBaseUrl: string, secret: string, account: string | null = null): Addresses => {
  const streamSecret = new TextEncoder().encode(secret)
  if (streamSecret.length < StreamToken.minimumSecretBytes) {
    throw new Error(`the media stream secret needs ${StreamToken.minimumSecretBytes} bytes`)
  }
  return { publicBaseUrl: publicBaseUrl.replace(/\/+$/, ""), streamSecret, account }
}

export const layer = (
  publicBaseUrl: string,
  secret: string,
  account: string | null = null
): Layer.Layer<CarrierAddresses> => Layer.sync(CarrierAddresses, () => make(publicBaseUrl, secret, account))
