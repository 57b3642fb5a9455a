// The voice bench's baseline: the same phone calls served by a hand-written relay on node:http and `ws`,
// with none of the engine (no database, no runs, transcript, recording, metrics or logs): `POST /calls
// {phone_number}` dials through Twilio's REST API; the answer webhook (signature checked) gives the
// `<Connect><Stream>`; on the media socket the greeting is spoken, the caller's μ-law is decoded and sent to
// Deepgram as 8 kHz linear16, each `speech_final` transcript goes to the model (streamed, with an `end_call`
// function), its reply to the speech server (24 kHz PCM16, taken every third sample to 8 kHz, μ-law framed
// in 20 ms and sent as it comes, a mark after it); `end_call` says "Goodbye." and hangs up once it played.
// Status callbacks are answered 204. What it costs is the floor of any relay over these providers.
// Environment: PORT, HOST, PUBLIC_BASE_URL, TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN, TWILIO_API_BASE_URL,
// TWILIO_DEFAULT_FROM, DEEPGRAM_URL, DEEPGRAM_API_KEY, TTS_BASE_URL, TTS_API_KEY, LLM_BASE_URL,
// LLM_API_KEY, LLM_MODEL (the engine's names, so the bench gives both the same).
import alawmulaw from "alawmulaw"
import { createHmac, timingSafeEqual } from "node:crypto"
import { createServer, type IncomingMessage } from "node:http"
import WebSocket, { WebSocketServer } from "ws"

const env = (name: string) => process.env[name] ?? ""
const publicBase = env("PUBLIC_BASE_URL")
const account = env("TWILIO_ACCOUNT_SID")
const token = env("TWILIO_AUTH_TOKEN")
const twilioAuth = `Basic ${Buffer.from(`${account}:${token}`).toString("base64")}`
const calls = `${env("TWILIO_API_BASE_URL")}/2010-04-01/Accounts/${account}/Calls`
let nextRun = 1

const readBody = (request: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let body = ""
    request.setEncoding("utf8")
    request.on("data", (chunk: string) => (body += chunk))
    request.on("end", () => resolve(body))
  })

/** Twilio's `X-Twilio-Signature` over the public URL and the sorted form. */
const signed = (url: string, form: URLSearchParams, signature: string) => {
  const text =
    url +
    [...form.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]) => k + v)
      .join("")
  const expected = createHmac("sha1", token).update(text).digest()
  const given = Buffer.from(signature, "base64")
  return given.length === expected.length && timingSafeEqual(given, expected)
}

const server = createServer(async (request, response) => {
  const body = await readBody(request)
  const path = request.url ?? "/"
  if (path === "/health") return response.writeHead(200).end("ok")
  if (path === "/calls" && request.method === "POST") {
    const { phone_number } = JSON.parse(body) as { phone_number: string }
    const run = nextRun++
    const dialed = await fetch(`${calls}.json`, {
      method: "POST",
      headers: { authorization: twilioAuth, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams([
        ["To", phone_number],
        ["From", env("TWILIO_DEFAULT_FROM")],
        ["Url", `${publicBase}/telephony/twilio/answer/${run}`],
        ["StatusCallback", `${publicBase}/telephony/twilio/status/${run}`],
        ["StatusCallbackEvent", "completed"]
      ]).toString()
    })
    return response.writeHead(dialed.status === 201 ? 200 : 503).end(await dialed.text())
  }
  const form = new URLSearchParams(body)
  if (!signed(`${publicBase}${path}`, form, String(request.headers["x-twilio-signature"] ?? ""))) {
    return response.writeHead(403).end()
  }
  const answer = /^\/telephony\/twilio\/answer\/(\d+)$/.exec(path)
  if (answer !== null) {
    const stream = `${publicBase.replace(/^http/, "ws")}/telephony/twilio/stream/${answer[1]}`
    response.writeHead(200, { "content-type": "text/xml" })
    return response.end(
      `<?xml version="1.0" encoding="UTF-8"?><Response><Connect><Stream url="${stream}"/></Connect></Response>`
    )
  }
  response.writeHead(204).end()
})

const sockets = new WebSocketServer({ server })
sockets.on("connection", (twilio) => {
  let streamSid = ""
  let callSid = ""
  const history: Array<{ role: string; content: string }> = [
    { role: "system", content: "You are the clinic's assistant. Answer the caller's questions." },
    { role: "assistant", content: "Hello, this is the clinic." }
  ]
  let marks = 0
  let hangUpAtMark = -1
  const send = (message: object) =>
    twilio.readyState === WebSocket.OPEN && twilio.send(JSON.stringify(message))

  /** Speaks `text`: the speech server's audio, 24 → 8 kHz, μ-law in 20 ms frames as it comes, then a mark. */
  const speak = async (text: string) => {
    const spoken = await fetch(`${env("TTS_BASE_URL")}/audio/speech`, {
      method: "POST",
      headers: { authorization: `Bearer ${env("TTS_API_KEY")}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "gpt-4o-mini-tts", input: text, voice: "alloy", response_format: "pcm" })
    })
    let carry = Buffer.alloc(0)
    let pending: Array<number> = []
    for await (const chunk of spoken.body as unknown as AsyncIterable<Uint8Array>) {
      const bytes = Buffer.concat([carry, chunk])
      const whole = bytes.length - (bytes.length % 6)
      carry = bytes.subarray(whole)
      const samples = new Int16Array(whole / 6)
      for (let i = 0; i < samples.length; i++) samples[i] = bytes.readInt16LE(i * 6)
      pending.push(...alawmulaw.mulaw.encode(samples))
      while (pending.length >= 160) {
        send({
          event: "media",
          streamSid,
          media: { payload: Buffer.from(pending.slice(0, 160)).toString("base64") }
        })
        pending = pending.slice(160)
      }
    }
    if (pending.length > 0) {
      const frame = [...pending, ...new Array<number>(160 - pending.length).fill(0xff)]
      send({ event: "media", streamSid, media: { payload: Buffer.from(frame).toString("base64") } })
    }
    send({ event: "mark", streamSid, mark: { name: `m${++marks}` } })
    return marks
  }

  const reply = async (words: string) => {
    history.push({ role: "user", content: words })
    const asked = await fetch(`${env("LLM_BASE_URL")}/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${env("LLM_API_KEY")}`, "content-type": "application/json" },
      body: JSON.stringify({
        model: env("LLM_MODEL"),
        stream: true,
        messages: history,
        tools: [
          {
            type: "function",
            function: {
              name: "end_call",
              description: "Ends the call",
              parameters: { type: "object", properties: {} }
            }
          }
        ]
      })
    })
    let content = ""
    let endCall = false
    for (const line of (await asked.text()).split("\n")) {
      if (!line.startsWith("data: ") || line === "data: [DONE]") continue
      const delta = JSON.parse(line.slice(6)).choices?.[0]?.delta ?? {}
      if (typeof delta.content === "string") content += delta.content
      if (
        Array.isArray(delta.tool_calls) &&
        delta.tool_calls.some((c: any) => c.function?.name === "end_call")
      )
        endCall = true
    }
    history.push({ role: "assistant", content })
    if (content !== "") await speak(content)
    if (endCall) hangUpAtMark = await speak("Goodbye.")
  }

  const deepgram = new WebSocket(
    `${env("DEEPGRAM_URL")}?encoding=linear16&sample_rate=8000&channels=1&interim_results=true&endpointing=300&utterance_end_ms=1000&language=en`,
    { headers: { authorization: `Token ${env("DEEPGRAM_API_KEY")}` } }
  )
  deepgram.on("error", () => twilio.close())
  deepgram.on("message", (data) => {
    const result = JSON.parse(String(data))
    const words = result.channel?.alternatives?.[0]?.transcript ?? ""
    if (result.type === "Results" && result.is_final && result.speech_final && words !== "") void reply(words)
  })
  twilio.on("message", (data) => {
    const message = JSON.parse(String(data))
    if (message.event === "start") {
      streamSid = message.start.streamSid
      callSid = message.start.callSid
      void speak("Hello, this is the clinic.")
    } else if (message.event === "media" && deepgram.readyState === WebSocket.OPEN) {
      const samples = alawmulaw.mulaw.decode(Buffer.from(message.media.payload, "base64"))
      deepgram.send(Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength))
    } else if (message.event === "mark" && message.mark.name === `m${hangUpAtMark}`) {
      void fetch(`${calls}/${callSid}.json`, {
        method: "POST",
        headers: { authorization: twilioAuth, "content-type": "application/x-www-form-urlencoded" },
        body: "Status=completed"
      })
    } else if (message.event === "stop") twilio.close()
  })
  twilio.on("close", () => deepgram.close())
})

server.listen(Number(env("PORT")), env("HOST") || "127.0.0.1")
