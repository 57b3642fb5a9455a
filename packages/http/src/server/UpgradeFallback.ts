import * as Http from "node:http"
import type * as Net from "node:net"
import type { Duplex } from "node:stream"

/**
 * Requests that ask to upgrade the connection but are not a WebSocket the server takes. Once any `upgrade`
 * listener exists, Node (20, 22, 24) sends it every request with `Connection: upgrade` and an `Upgrade`
 * header — `curl --http2` adds `Upgrade: h2c` to a plain request — instead of the `request` listener, with
 * the connection's parser already gone. Such a request is given back to the `request` listener (the API)
 * with a response on its socket, and the connection closed after the answer, as HTTP/1.1 without the
 * upgrade. Its body cannot be: Node ended the request at its headers and the body bytes were never parsed,
 * so a request with a body is answered 400 saying to send it without `Upgrade`.
 */

/** Whether the request asks for a WebSocket (`Upgrade: websocket`). */
export const isWebSocket = (request: Http.IncomingMessage): boolean =>
  (request.headers.upgrade ?? "").split(",").some((protocol) => protocol.trim().toLowerCase() === "websocket")

const hasBody = (request: Http.IncomingMessage, head: Buffer) =>
  head.length > 0 ||
  request.headers["transfer-encoding"] !== undefined ||
  (request.headers["content-length"] !== undefined && request.headers["content-length"] !== "0")

/** Answers an upgrade request as the plain request it also is (see above). */
export const serveAsRequest = (
  server: Http.Server,
  request: Http.IncomingMessage,
  socket: Duplex,
  head: Buffer
): void => {
  if (socket.destroyed) return
  const response = new Http.ServerResponse(request)
  response.shouldKeepAlive = false
  response.assignSocket(socket as Net.Socket)
  response.on("finish", () => {
    response.detachSocket(socket as Net.Socket)
    socket.end()
  })
  if (hasBody(request, head)) {
    const body = JSON.stringify({
      detail: `A request with a body cannot ask to upgrade the connection (Upgrade: ${request.headers.upgrade}): send it without the Upgrade header`
    })
    response.writeHead(400, {
      "Content-Type": "application/json",
      "Content-Length": Buffer.byteLength(body)
    })
    response.end(body)
    return
  }
  server.emit("request", request, response)
}
