import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as TwilioSignature from "../../src/twilio/TwilioSignature.js"
import { FakeTwilio } from "../../testing/index.js"

/** A raw request to the fake, as any client of Twilio's API might send it. */
const raw = (
  twilio: FakeTwilio.Running,
  method: string,
  path: string,
  form?: ReadonlyArray<[string, string]>,
  auth = `${twilio.accountSid}:${twilio.authToken}`
) =>
  Effect.promise(async () => {
    const response = await fetch(`${twilio.baseUrl}/2010-04-01/Accounts/${twilio.accountSid}/${path}`, {
      method,
      headers: {
        authorization: `Basic ${Buffer.from(auth).toString("base64")}`,
        "content-type": "application/x-www-form-urlencoded"
      },
      ...(form === undefined ? {} : { body: new URLSearchParams(form).toString() })
    })
    return { status: response.status, body: (await response.json()) as Record<string, unknown> }
  })

const valid: ReadonlyArray<[string, string]> = [
  ["To", "+48500000002"],
  ["From", "+48500000001"],
  ["Url", "https://voice.example.com/answer/1"]
]

describe("FakeTwilio", () => {
  it.scopedLive("checks what Twilio checks, in Twilio's error shape", () =>
    Effect.gen(function* () {
      const twilio = yield* FakeTwilio.start()
      expect(yield* raw(twilio, "POST", "Calls.json", valid, `${twilio.accountSid}:wrong`)).toMatchObject({
        status: 401,
        body: { code: 20003, status: 401 }
      })
      const without = (name: string) => valid.filter(([key]) => key !== name)
      expect((yield* raw(twilio, "POST", "Calls.json", without("To"))).body).toMatchObject({ code: 21211 })
      expect((yield* raw(twilio, "POST", "Calls.json", without("From"))).body).toMatchObject({ code: 21212 })
      expect((yield* raw(twilio, "POST", "Calls.json", without("Url"))).body).toMatchObject({ code: 21205 })
      expect(
        (yield* raw(twilio, "POST", "Calls.json", [...valid, ["StatusCallbackEvent", "answred"]])).body
      ).toMatchObject({ code: 21626 })
      expect(twilio.calls()).toEqual([])
      const created = yield* raw(twilio, "POST", "Calls.json", valid)
      expect(created).toMatchObject({ status: 201, body: { status: "queued", direction: "outbound-api" } })
      const sid = created.body["sid"] as string
      expect(sid).toMatch(/^CA[0-9a-f]{32}$/)
      expect((yield* raw(twilio, "GET", `Calls/${sid}.json`)).body).toMatchObject({ sid, price: null })
      expect((yield* raw(twilio, "POST", `Calls/${sid}.json`, [["Status", "busy"]])).status).toBe(400)
      twilio.calls()[0]!.status = "in-progress"
      expect((yield* raw(twilio, "POST", `Calls/${sid}.json`, [["Status", "canceled"]])).status).toBe(400)
      expect((yield* raw(twilio, "POST", `Calls/${sid}.json`, [["Status", "completed"]])).body).toMatchObject(
        {
          status: "completed"
        }
      )
      expect((yield* raw(twilio, "POST", `Calls/${sid}.json`, [["Status", "completed"]])).status).toBe(400)
      expect((yield* raw(twilio, "GET", `Calls/CA${"0".repeat(32)}.json`)).status).toBe(404)
      expect(twilio.requests().map((request) => request.status)).toEqual([
        401, 400, 400, 400, 400, 201, 200, 400, 400, 200, 400, 404
      ])
    })
  )

  it.scopedLive("fails as told, and recovers", () =>
    Effect.gen(function* () {
      const twilio = yield* FakeTwilio.start()
      twilio.fail({ kind: "status", status: 503 })
      expect(yield* raw(twilio, "POST", "Calls.json", valid)).toMatchObject({
        status: 503,
        body: { status: 503 }
      })
      twilio.fail({ kind: "down" })
      const down = yield* Effect.either(
        raw(twilio, "POST", "Calls.json", valid).pipe(Effect.catchAllDefect(Effect.fail))
      )
      expect(down._tag).toBe("Left")
      twilio.fail({ kind: "none" })
      expect((yield* raw(twilio, "POST", "Calls.json", valid)).status).toBe(201)
    })
  )

  it.scopedLive("signs its webhooks as Twilio does, over the URL it is told", () =>
    Effect.gen(function* () {
      const twilio = yield* FakeTwilio.start({ authToken: "12345" })
      const seen: Array<{ signature: string | undefined; body: string }> = []
      const receiver = yield* FakeTwilioReceiver((signature, body) => seen.push({ signature, body }))
      const params: ReadonlyArray<readonly [string, string]> = [
        ["CallSid", "CA1234567890ABCDE"],
        ["Caller", "+12349013030"],
        ["Digits", "1234"],
        ["From", "+12349013030"],
        ["To", "+18005551212"]
      ]
      const answer = yield* twilio.postSigned(receiver, params, {
        signedUrl: "https://mycompany.com/myapp.php?foo=1&bar=2"
      })
      expect(answer.status).toBe(204)
      expect(seen[0]!.signature).toBe("0/KCTR6DLpKmkAf8muzZqo1nDgQ=")
      expect(TwilioSignature.formParams(seen[0]!.body)).toEqual(params)
      yield* twilio.postSigned(receiver, params, { signature: null })
      expect(seen[1]!.signature).toBeUndefined()
    })
  )
})

/** A loopback receiver for the scope, answering 204 to every POST; gives its URL. */
const FakeTwilioReceiver = (onPost: (signature: string | undefined, body: string) => void) =>
  Effect.map(
    Effect.acquireRelease(
      Effect.promise(async () => {
        const { createServer } = await import("node:http")
        const server = createServer((request, response) => {
          let body = ""
          request.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")))
          request.on("end", () => {
            const header = request.headers["x-twilio-signature"]
            onPost(typeof header === "string" ? header : undefined, body)
            response.writeHead(204).end()
          })
        })
        await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
        return server
      }),
      (server) =>
        Effect.promise(
          () =>
            new Promise<void>((resolve) => {
              server.closeAllConnections()
              server.close(() => resolve())
            })
        )
    ),
    (server) => `http://127.0.0.1:${(server.address() as { port: number }).port}/hook`
  )
