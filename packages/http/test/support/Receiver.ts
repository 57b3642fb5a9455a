import { Effect } from "effect"
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http"
import type { AddressInfo, Socket } from "node:net"

/** One request a receiver got, its body read whole. */
export interface Received {
  readonly method: string
  readonly url: string
  readonly headers: IncomingHttpHeaders
  readonly body: string
}

/** A local HTTP receiver: what it got, and every connection made to it (answered or not). */
export interface Receiver {
  readonly port: number
  readonly origin: string
  readonly requests: Array<Received>
  readonly connections: Array<Socket>
}

/**
 * A receiver on 127.0.0.1 (random port) answering each request, once its body is read, with `answer`
 * (which may also never answer); every socket is destroyed and the server closed with the scope.
 */
export const receiver = (answer: (request: Received, response: ServerResponse) => void) =>
  Effect.acquireRelease(
    Effect.async<Receiver & { readonly close: () => void }>((resume) => {
      const requests: Array<Received> = []
      const connections: Array<Socket> = []
      const server = createServer((incoming, response) => {
        const chunks: Array<Buffer> = []
        incoming.on("data", (chunk: Buffer) => chunks.push(chunk))
        incoming.on("end", () => {
          const received: Received = {
            method: incoming.method ?? "",
            url: incoming.url ?? "",
            headers: incoming.headers,
            body: Buffer.concat(chunks).toString("utf8")
          }
          requests.push(received)
          answer(received, response)
        })
      })
      server.on("connection", (socket) => connections.push(socket))
      server.listen(0, "127.0.0.1", () => {
        const { port } = server.address() as AddressInfo
        resume(
          Effect.succeed({
            port,
            origin: `http://127.0.0.1:${port}`,
            requests,
            connections,
            close: () => {
              for (const socket of connections) socket.destroy()
              server.close()
            }
          })
        )
      })
    }),
    ({ close }) => Effect.sync(close)
  )

/** Answers JSON with a status. */
export const answerJson = (response: ServerResponse, status: number, body: unknown) => {
  response.writeHead(status, { "content-type": "application/json" })
  response.end(JSON.stringify(body))
}
