import { Effect, Redacted } from "effect"
import { createHash } from "node:crypto"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import type * as SigV4 from "../src/SigV4.js"
import * as SignatureCheck from "./SignatureCheck.js"

/** The key pair the emulator accepts. */
export const credentials: SigV4.Credentials = {
  accessKeyId: "AKIDTESTEMULATOR",
  secretAccessKey: Redacted.make("emulator-secret-0123456789abcdefghij")
}
export const bucket = "recordings"
export const region = "eu-central-1"

/** The largest body the emulator reads, so a runaway test cannot eat the memory. */
const maxBody = 4 * 1024 * 1024

/** A running emulator: its origin, what it holds (by wire path) and every request line it accepted. */
export interface S3Emulator {
  readonly endpoint: string
  readonly objects: Map<string, { readonly bytes: Uint8Array; readonly contentType: string | undefined }>
  readonly requests: Array<{ readonly method: string; readonly path: string }>
}

const readBody = (req: IncomingMessage) =>
  new Promise<Uint8Array | undefined>((resolve, reject) => {
    const chunks: Array<Buffer> = []
    let size = 0
    req.on("data", (chunk: Buffer) => {
      size += chunk.length
      if (size > maxBody) {
        resolve(undefined)
        req.destroy()
      } else chunks.push(chunk)
    })
    req.on("end", () => resolve(new Uint8Array(Buffer.concat(chunks))))
    req.on("error", reject)
  })

const fail = (res: ServerResponse, status: number, code: string) => {
  res.writeHead(status, { "content-type": "application/xml" })
  res.end(
    `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${code}</Message></Error>`
  )
}

/**
 * Checks the signature with the emulator's own implementation (not the signer under test), and that
 * the payload hash, the date and the body are signed, as S3 requires.
 */
const verify = (req: IncomingMessage, body: Uint8Array) => {
  const payloadHash = req.headers["x-amz-content-sha256"]
  if (payloadHash !== createHash("sha256").update(body).digest("hex")) return false
  const signed = /SignedHeaders=([a-z0-9;-]+)/.exec(req.headers.authorization ?? "")?.[1]?.split(";") ?? []
  if (!["host", "x-amz-date", "x-amz-content-sha256"].every((name) => signed.includes(name))) return false
  return SignatureCheck.verify(
    { method: req.method ?? "", target: req.url ?? "", headers: req.headers, body },
    { ...credentials, secretAccessKey: Redacted.value(credentials.secretAccessKey), region, service: "s3" }
  )
}

const handle = (emulator: S3Emulator, req: IncomingMessage, res: ServerResponse) =>
  Effect.gen(function* () {
    const body = yield* Effect.promise(() => readBody(req))
    if (body === undefined) return fail(res, 413, "EntityTooLarge")
    if (!verify(req, body)) return fail(res, 403, "SignatureDoesNotMatch")
    const path = req.url ?? ""
    if (!path.startsWith(`/${bucket}/`)) return fail(res, 404, "NoSuchBucket")
    emulator.requests.push({ method: req.method ?? "", path })
    const stored = emulator.objects.get(path)
    switch (req.method) {
      case "PUT":
        emulator.objects.set(path, {
          bytes: body,
          contentType: req.headers["content-type"] ?? "binary/octet-stream"
        })
        res.writeHead(200, { etag: '"emulated"' })
        return res.end()
      case "GET":
      case "HEAD":
        if (!stored) return fail(res, 404, "NoSuchKey")
        res.writeHead(200, {
          ...(stored.contentType === undefined ? {} : { "content-type": stored.contentType }),
          "content-length": stored.bytes.length
        })
        return res.end(req.method === "GET" ? stored.bytes : undefined)
      case "DELETE":
        // Like S3: 204 whether or not the object was there.
        emulator.objects.delete(path)
        res.writeHead(204)
        return res.end()
      default:
        return fail(res, 405, "MethodNotAllowed")
    }
  })

/** An S3 emulator on 127.0.0.1 at a random port, closed with the scope. */
export const start = Effect.acquireRelease(
  Effect.async<{ emulator: S3Emulator; close: () => Promise<void> }>((resume) => {
    const objects: S3Emulator["objects"] = new Map()
    const requests: S3Emulator["requests"] = []
    let emulator: S3Emulator | undefined
    const server = createServer((req, res) => {
      Effect.runPromise(handle(emulator!, req, res)).catch(() => fail(res, 500, "InternalError"))
    })
    server.requestTimeout = 10_000
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo
      emulator = { endpoint: `http://127.0.0.1:${port}`, objects, requests }
      const close = () =>
        new Promise<void>((done) => {
          server.closeAllConnections()
          server.close(() => done())
        })
      resume(Effect.succeed({ emulator, close }))
    })
  }),
  ({ close }) => Effect.promise(close)
).pipe(Effect.map(({ emulator }) => emulator))
