import { randomBytes } from "node:crypto"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { Socket } from "node:net"
import { Effect, type Scope } from "effect"
import * as TwilioSignature from "../../src/twilio/TwilioSignature.js"

/**
 * A fake of Twilio's REST API for calls, on 127.0.0.1 in the test's own process (closed with its scope):
 * it checks Basic auth and the form parameters the way Twilio does, records every request, answers a
 * created call 201 with a `CA` + 32 hex sid, updates (hang up, `Twiml`) and reads calls, and can be told
 * to fail (a status such as 500, down: connections dropped, silent: never answering, lost: the next call
 * created but its answer dropped or failed), and lists calls by `To` and `From`. It also plays
 * Twilio's webhooks: a form POST signed with `X-Twilio-Signature` to any URL (status callbacks, the
 * answer webhook). The media socket is `FakeMediaStream`'s.
 *
 * ```ts
 * const twilio = yield* FakeTwilio.start()
 * // TwilioRestClient.make({ accountSid: twilio.accountSid, authToken, baseUrl: twilio.baseUrl })
 * ```
 */

/** A request the fake received (the control of the fake aside). */
export interface RecordedRequest {
  readonly method: string
  /** The path, from `/2010-04-01`. */
  readonly path: string
  /** The form parameters in order (a name may repeat). */
  readonly params: ReadonlyArray<readonly [string, string]>
  /** Whether its Basic auth named the account and its token. */
  readonly authorized: boolean
  /** The status answered. */
  readonly status: number
}

/** A call as the fake keeps it. */
export interface FakeCall {
  sid: string
  to: string
  from: string
  url: string
  status_callback: string | null
  status_callback_events: ReadonlyArray<string>
  status: string
  duration: string | null
  price: string | null
  price_unit: string
  /** When it was created (`date_created`, RFC 2822). */
  date_created: string
  /** Each `Twiml` it was updated with, in order. */
  twiml: Array<string>
}

/** How the fake answers REST requests: as Twilio, with a status of error, dropped, or never. */
export type Failure =
  | { readonly kind: "none" }
  | { readonly kind: "status"; readonly status: number; readonly code?: number }
  | { readonly kind: "down" }
  | { readonly kind: "silent" }
  /**
   * The next call is created as asked, but its answer is lost: the connection dropped (no `status`) or
   * answered `status` (a 500 after the work was done). Once: the fake then answers as Twilio again.
   */
  | { readonly kind: "lost"; readonly status?: number }
  /**
   * Requests wait, unanswered, until the fake is told another failure (then they are answered so); one
   * its client gives up on meanwhile is recorded with status 499.
   */
  | { readonly kind: "held" }

export interface Running {
  /** `http://127.0.0.1:<port>`: what `TWILIO_API_BASE_URL` is set to. */
  readonly baseUrl: string
  readonly accountSid: string
  readonly authToken: string
  /** Every REST request so far, oldest first. */
  readonly requests: () => ReadonlyArray<RecordedRequest>
  /** The calls created, oldest first (live objects: a test may settle one's price or status). */
  readonly calls: () => ReadonlyArray<FakeCall>
  /** Makes the next REST requests fail so (until told `{kind: "none"}`). */
  readonly fail: (failure: Failure) => void
  /**
   * POSTs `params` form-encoded to `url` as Twilio does a webhook, signed with the account's token (or with
   * `signature` when given: null sends none). Answers the status and body.
   */
  readonly postSigned: (
    url: string,
    params: ReadonlyArray<readonly [string, string]>,
    options?: { readonly signature?: string | null; readonly signedUrl?: string }
  ) => Effect.Effect<{ readonly status: number; readonly body: string }>
  /** The form of a status callback for `call` (`SequenceNumber` and `CallStatus` given; the rest filled in). */
  readonly statusParams: (
    call: FakeCall,
    callStatus: string,
    sequence: number,
    extra?: ReadonlyArray<readonly [string, string]>
  ) => ReadonlyArray<readonly [string, string]>
}

const hex = (bytes: number) => randomBytes(bytes).toString("hex")

const e164 = /^\+[1-9][0-9]{1,14}$/
const events = new Set(["initiated", "ringing", "answered", "completed"])
const isHttpUrl = (value: string) => {
  try {
    const url = new URL(value)
    return url.protocol === "http:" || url.protocol === "https:"
  } catch {
    return false
  }
}

const resource = (accountSid: string, call: FakeCall) => ({
  sid: call.sid,
  account_sid: accountSid,
  to: call.to,
  from: call.from,
  status: call.status,
  direction: "outbound-api",
  duration: call.duration,
  price: call.price,
  price_unit: call.price_unit,
  date_created: call.date_created,
  api_version: "2010-04-01",
  uri: `/2010-04-01/Accounts/${accountSid}/Calls/${call.sid}.json`
})

const twilioError = (status: number, code: number, message: string) => ({
  code,
  message,
  more_info: `https://www.twilio.com/docs/errors/${code}`,
  status
})

const readBody = (request: IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    let body = ""
    request.setEncoding("utf8")
    request.on("data", (chunk: string) => (body += chunk))
    request.on("end", () => resolve(body))
    request.on("error", reject)
  })

/**
 * Starts a fake for the scope (`authToken` default: a fresh random one). `now` is Twilio's clock (its
 * `date_created` and webhooks' `Timestamp`), the machine's by default: a test whose server's clock is
 * shifted (`CLOCK_OFFSET_SECONDS`) gives the fake the same shift, as Twilio's and a real server's clocks
 * agree.
 */
export const start = (
  options: { readonly accountSid?: string; readonly authToken?: string; readonly now?: () => number } = {}
): Effect.Effect<Running, never, Scope.Scope> =>
  Effect.gen(function* () {
    const now = options.now ?? Date.now
    const rfc2822 = () => new Date(now()).toUTCString().replace("GMT", "+0000")
    const accountSid = options.accountSid ?? `AC${hex(16)}`
    const authToken = options.authToken ?? hex(16)
    const expectedAuth = `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString("base64")}`
    const requests: Array<RecordedRequest> = []
    const calls: Array<FakeCall> = []
    let failure: Failure = { kind: "none" }
    // the held requests' resumptions, run when the fake is told another failure
    let held: Array<() => void> = []
    const sockets = new Set<Socket>()

    const answer = (
      response: ServerResponse,
      record: Omit<RecordedRequest, "status">,
      status: number,
      body: unknown
    ) => {
      requests.push({ ...record, status })
      response.writeHead(status, { "content-type": "application/json" })
      response.end(JSON.stringify(body))
    }

    const handle = async (request: IncomingMessage, response: ServerResponse) => {
      const body = await readBody(request)
      const requestUrl = new URL(request.url ?? "/", "http://fake")
      const path = requestUrl.pathname
      const params = [...new URLSearchParams(body).entries()] as ReadonlyArray<readonly [string, string]>
      const record = {
        method: request.method ?? "",
        path,
        params,
        authorized: request.headers.authorization === expectedAuth
      }
      if (failure.kind === "down") {
        requests.push({ ...record, status: 0 })
        return request.socket.destroy()
      }
      if (failure.kind === "silent") return requests.push({ ...record, status: 0 })
      if (failure.kind === "held") {
        const given = await new Promise<boolean>((resume) => {
          held.push(() => resume(false))
          response.once("close", () => {
            if (!response.writableEnded) resume(true)
          })
        })
        if (given) return requests.push({ ...record, status: 499 })
        return handleAs(request, response, record, params, requestUrl, path)
      }
      return handleAs(request, response, record, params, requestUrl, path)
    }

    const handleAs = (
      request: IncomingMessage,
      response: ServerResponse,
      record: Omit<RecordedRequest, "status">,
      params: ReadonlyArray<readonly [string, string]>,
      requestUrl: URL,
      path: string
    ) => {
      if (failure.kind === "status") {
        const status = failure.status
        return answer(
          response,
          record,
          status,
          twilioError(status, failure.code ?? 20500, "Internal Server Error")
        )
      }
      if (!record.authorized) return answer(response, record, 401, twilioError(401, 20003, "Authenticate"))
      const base = `/2010-04-01/Accounts/${accountSid}/Calls`
      const param = (name: string) => params.find(([key]) => key === name)?.[1]
      if (path === `${base}.json` && request.method === "POST") {
        const to = param("To") ?? ""
        const from = param("From") ?? ""
        const url = param("Url") ?? ""
        const callback = param("StatusCallback")
        const callbackEvents = params
          .filter(([key]) => key === "StatusCallbackEvent")
          .map(([, value]) => value)
        if (!e164.test(to))
          return answer(response, record, 400, twilioError(400, 21211, "Invalid 'To' Phone Number"))
        if (!e164.test(from))
          return answer(response, record, 400, twilioError(400, 21212, "Invalid 'From' Phone Number"))
        if (!isHttpUrl(url))
          return answer(response, record, 400, twilioError(400, 21205, "Url is not a valid URL"))
        if (callback !== undefined && !isHttpUrl(callback)) {
          return answer(response, record, 400, twilioError(400, 21609, "StatusCallback is not a valid URL"))
        }
        if (callbackEvents.some((event) => !events.has(event))) {
          return answer(response, record, 400, twilioError(400, 21626, "Invalid StatusCallbackEvent"))
        }
        const call: FakeCall = {
          sid: `CA${hex(16)}`,
          to,
          from,
          url,
          status_callback: callback ?? null,
          status_callback_events: callbackEvents,
          status: "queued",
          duration: null,
          price: null,
          price_unit: "USD",
          date_created: rfc2822(),
          twiml: []
        }
        calls.push(call)
        if (failure.kind === "lost") {
          const lost = failure
          failure = { kind: "none" }
          if (lost.status === undefined) {
            requests.push({ ...record, status: 0 })
            return request.socket.destroy()
          }
          return answer(
            response,
            record,
            lost.status,
            twilioError(lost.status, 20500, "Internal Server Error")
          )
        }
        return answer(response, record, 201, resource(accountSid, call))
      }
      if (path === `${base}.json` && request.method === "GET") {
        const to = requestUrl.searchParams.get("To")
        const from = requestUrl.searchParams.get("From")
        const size = Number(requestUrl.searchParams.get("PageSize") ?? "50")
        const found = calls
          .filter((c) => (to === null || c.to === to) && (from === null || c.from === from))
          .reverse()
          .slice(0, size)
        return answer(response, record, 200, {
          calls: found.map((c) => resource(accountSid, c)),
          page: 0,
          page_size: size
        })
      }
      const one = new RegExp(`^${base}/(CA[0-9a-f]{32})\\.json$`).exec(path)
      const call = one === null ? undefined : calls.find((candidate) => candidate.sid === one[1])
      if (call === undefined) {
        return answer(response, record, 404, twilioError(404, 20404, "The requested resource was not found"))
      }
      if (request.method === "GET") return answer(response, record, 200, resource(accountSid, call))
      if (request.method !== "POST")
        return answer(response, record, 405, twilioError(405, 20004, "Method not allowed"))
      const status = param("Status")
      const twiml = param("Twiml")
      if (status !== undefined) {
        if (status !== "completed" && status !== "canceled") {
          return answer(response, record, 400, twilioError(400, 21218, "Invalid Status"))
        }
        if (call.status === "completed" || call.status === "canceled") {
          return answer(
            response,
            record,
            400,
            twilioError(400, 21220, "Call is not in-progress. Cannot redirect.")
          )
        }
        if (status === "canceled" && call.status === "in-progress") {
          return answer(response, record, 400, twilioError(400, 21220, "Call is in progress. Cannot cancel."))
        }
        call.status = status
      } else if (twiml !== undefined) {
        call.twiml.push(twiml)
      } else {
        return answer(response, record, 400, twilioError(400, 20001, "Nothing to update"))
      }
      return answer(response, record, 200, resource(accountSid, call))
    }

    const server = createServer((request, response) => {
      handle(request, response).catch(() => response.destroy())
    })
    server.on("connection", (socket) => {
      sockets.add(socket)
      socket.once("close", () => sockets.delete(socket))
    })
    const port = yield* Effect.acquireRelease(
      Effect.async<number>((resume) => {
        server.listen(0, "127.0.0.1", () =>
          resume(Effect.succeed((server.address() as { port: number }).port))
        )
      }),
      () =>
        Effect.async<void>((resume) => {
          for (const socket of sockets) socket.destroy()
          server.close(() => resume(Effect.void))
        })
    )

    const postSigned: Running["postSigned"] = (url, params, postOptions = {}) =>
      Effect.promise(async () => {
        const signature =
          postOptions.signature === undefined
            ? TwilioSignature.sign(authToken, postOptions.signedUrl ?? url, params)
            : postOptions.signature
        const response = await fetch(url, {
          method: "POST",
          headers: {
            "content-type": "application/x-www-form-urlencoded",
            "user-agent": "TwilioProxy/1.1",
            ...(signature === null ? {} : { "x-twilio-signature": signature })
          },
          body: new URLSearchParams(params.map(([name, value]): [string, string] => [name, value])).toString()
        })
        return { status: response.status, body: await response.text() }
      })

    return {
      baseUrl: `http://127.0.0.1:${port}`,
      accountSid,
      authToken,
      requests: () => [...requests],
      calls: () => [...calls],
      fail: (next) => {
        failure = next
        if (next.kind !== "held") {
          const resumed = held
          held = []
          for (const resume of resumed) resume()
        }
      },
      postSigned,
      statusParams: (call, callStatus, sequence, extra = []) => [
        ["AccountSid", accountSid],
        ["ApiVersion", "2010-04-01"],
        ["CallSid", call.sid],
        ["CallStatus", callStatus],
        ["Called", call.to],
        ["Caller", call.from],
        ["Direction", "outbound-api"],
        ["From", call.from],
        ["SequenceNumber", String(sequence)],
        ["Timestamp", rfc2822()],
        ["To", call.to],
        ...extra
      ]
    }
  })
