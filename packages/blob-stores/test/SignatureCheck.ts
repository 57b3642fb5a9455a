/**
 * The S3 emulator's own SigV4 check, written from AWS's documentation ("Create a signed AWS API
 * request") with `node:crypto`, sharing no code with the signer under test: it reads the request as the
 * server received it and recomputes the signature step by step.
 */
import { createHash, createHmac } from "node:crypto"

/** A request as a server receives it: header names lower-cased, the target (path and query) as sent. */
export interface ReceivedRequest {
  readonly method: string
  readonly target: string
  readonly headers: Readonly<Record<string, string | ReadonlyArray<string> | undefined>>
  readonly body: Uint8Array
}

/** The key pair and scope the server accepts. */
export interface Accepted {
  readonly accessKeyId: string
  readonly secretAccessKey: string
  readonly region: string
  readonly service: string
}

const sha256 = (data: string | Uint8Array) => createHash("sha256").update(data).digest("hex")
const hmac = (key: string | Buffer, data: string) => createHmac("sha256", key).update(data).digest()

/** RFC 3986: every byte but `A-Za-z0-9-._~` as `%XX`, upper-case hex. */
const encode = (value: string) =>
  Array.from(Buffer.from(value, "utf8"), (byte) => {
    const c = String.fromCharCode(byte)
    return /[A-Za-z0-9\-._~]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`
  }).join("")

const headerValue = (request: ReceivedRequest, name: string) => {
  const value = request.headers[name]
  return typeof value === "string" ? value : undefined
}

/**
 * The canonical request: method, the path as sent (S3 signs it as it is on the wire), the query with
 * names and values encoded and sorted, the signed headers' trimmed values, their names, the payload
 * hash (`x-amz-content-sha256` when sent, else the body's).
 */
export const canonicalRequest = (request: ReceivedRequest, signedNames: ReadonlyArray<string>): string => {
  const question = request.target.indexOf("?")
  const path = question < 0 ? request.target : request.target.slice(0, question)
  const query = question < 0 ? "" : request.target.slice(question + 1)
  const pairs = query
    .split("&")
    .filter((pair) => pair !== "")
    .map((pair) => {
      const equals = pair.indexOf("=")
      const [name, value] = equals < 0 ? [pair, ""] : [pair.slice(0, equals), pair.slice(equals + 1)]
      return `${encode(decodeURIComponent(name))}=${encode(decodeURIComponent(value))}`
    })
    .sort()
  const headers = signedNames.map(
    (name) => `${name}:${(headerValue(request, name) ?? "").trim().replace(/\s+/g, " ")}\n`
  )
  return [
    request.method,
    path,
    pairs.join("&"),
    headers.join(""),
    signedNames.join(";"),
    headerValue(request, "x-amz-content-sha256") ?? sha256(request.body)
  ].join("\n")
}

/** The signature of the request for the accepted key, over the named headers, at its `x-amz-date`. */
export const signature = (
  request: ReceivedRequest,
  accepted: Accepted,
  signedNames: ReadonlyArray<string>
): string => {
  const amzDate = headerValue(request, "x-amz-date") ?? ""
  const day = amzDate.slice(0, 8)
  const scope = `${day}/${accepted.region}/${accepted.service}/aws4_request`
  const stringToSign = [
    "AWS4-HMAC-SHA256",
    amzDate,
    scope,
    sha256(canonicalRequest(request, signedNames))
  ].join("\n")
  const dateKey = hmac(`AWS4${accepted.secretAccessKey}`, day)
  const signingKey = hmac(hmac(hmac(dateKey, accepted.region), accepted.service), "aws4_request")
  return createHmac("sha256", signingKey).update(stringToSign).digest("hex")
}

const authorizationPattern =
  /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/

/**
 * Whether the request's `Authorization` header is a valid signature by the accepted key: the key id,
 * day, region and service of its scope, and the signature recomputed over the headers it names.
 */
export const verify = (request: ReceivedRequest, accepted: Accepted): boolean => {
  const match = authorizationPattern.exec(headerValue(request, "authorization") ?? "")
  if (!match) return false
  const [, keyId, day, region, service, signedNames, claimed] = match
  if (keyId !== accepted.accessKeyId || region !== accepted.region || service !== accepted.service)
    return false
  if (!(headerValue(request, "x-amz-date") ?? "").startsWith(day!)) return false
  const names = signedNames!.split(";")
  if (!names.includes("host") || names.some((name) => headerValue(request, name) === undefined)) return false
  return signature(request, accepted, names) === claimed
}
