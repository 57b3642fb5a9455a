/** The phone-number tests' organization, inventory and requests. */
import type { HttpClient } from "@effect/platform"
import { HttpClientRequest } from "@effect/platform"
import { Money, Organizations, PhoneNumbers } from "@voice-agent-platform/core"
import type { NumberPricing } from "@voice-agent-platform/core"
import { Effect } from "effect"
import { json, organization, rawClient, send } from "./TestServer.js"

// Default prices: mobile 0 + 19.99 a month, landline 49.00 + 9.99 a month, both 12 months minimum.
export type Body = Record<string, any>

/** An organization with a balance in grosze, and its client. */
export const setup = (balance = 0) =>
  Effect.gen(function* () {
    const { organization: org, apiKey } = yield* organization()
    if (balance > 0) {
      yield* (yield* Organizations.Organizations).topUp(org.id, Money.MinorUnits.make(balance))
    }
    return { org, client: yield* rawClient(apiKey) }
  })

/** Adds a number to the orderable inventory, as the operator does. */
export const addNumber = (number: string, number_type: NumberPricing.NumberType) =>
  Effect.flatMap(PhoneNumbers.PhoneNumbers, (numbers) => numbers.addToInventory({ number, number_type }))

export const get = (client: HttpClient.HttpClient, url: string) => send(client, HttpClientRequest.get(url))

export const post = (client: HttpClient.HttpClient, url: string, body?: unknown) =>
  send(client, body === undefined ? HttpClientRequest.post(url) : json("POST", url, body))

/** The balance in PLN, as the quote shows it. */
export const balanceOf = (client: HttpClient.HttpClient) =>
  Effect.map(
    get(client, "/api/v1/phone-numbers/polish/quote?number_type=mobile"),
    (r) => (r.body as Body).balance_pln as number
  )

export const locs = (body: unknown) =>
  (body as { detail: Array<{ loc: Array<string | number> }> }).detail.map((d) => d.loc.join("."))
