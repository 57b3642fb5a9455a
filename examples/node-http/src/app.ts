import { NodeHandler } from "@voice-agent-platform/http"
import { Redacted } from "effect"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"

const prefix = "/voice"

const sendJson = (response: ServerResponse, status: number, body: unknown) => {
  response.writeHead(status, { "content-type": "application/json" })
  response.end(JSON.stringify(body))
}

/** The host's own JSON body parser: at most 64 KiB. */
const readJson = (request: IncomingMessage) =>
  new Promise<unknown>((resolve, reject) => {
    let text = ""
    request.setEncoding("utf8")
    request.on("data", (chunk: string) => {
      text += chunk
      if (text.length > 64 * 1024) reject(new Error("body too large"))
    })
    request.on("end", () => {
      try {
        resolve(JSON.parse(text))
      } catch (error) {
        reject(error)
      }
    })
    request.on("error", reject)
  })

/**
 * A plain `node:http` server with its own routes, and the Voice Agent Platform API under `/voice`: the
 * prefix is stripped and the request handed over unread.
 */
export const makeServer = (options: { readonly adminToken?: string | undefined } = {}) => {
  const voice = NodeHandler.make({
    ...(options.adminToken === undefined ? {} : { adminToken: Redacted.make(options.adminToken) })
  })
  const server = createServer((request, response) => {
    const url = request.url ?? "/"
    if (url === prefix || url.startsWith(`${prefix}/`) || url.startsWith(`${prefix}?`)) {
      request.url = url.slice(prefix.length) || "/"
      return voice.handler(request, response)
    }
    if (request.method === "GET" && url === "/hello")
      return sendJson(response, 200, { hello: "from the host" })
    if (request.method === "POST" && url === "/echo") {
      return void readJson(request).then(
        (received) => sendJson(response, 200, { received }),
        () => sendJson(response, 400, { error: "expected a JSON body" })
      )
    }
    sendJson(response, 404, { error: "not found" })
  })
  return { server, dispose: voice.dispose }
}
