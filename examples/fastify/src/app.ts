import { NodeHandler } from "@voice-agent-platform/http"
import { Redacted } from "effect"
import Fastify from "fastify"

const prefix = "/voice"

/**
 * A Fastify service with its own routes (and Fastify's JSON body parser), and the Voice Agent Platform
 * API under `/voice`. In the API's scope no body parser runs (the API reads bodies itself) and the reply
 * is hijacked: the API answers on the raw Node response.
 */
export const makeApp = (options: { readonly adminToken?: string | undefined } = {}) => {
  const voice = NodeHandler.make({
    ...(options.adminToken === undefined ? {} : { adminToken: Redacted.make(options.adminToken) })
  })
  const app = Fastify()
  app.get("/hello", async () => ({ hello: "from the host" }))
  app.post("/echo", async (request) => ({ received: request.body }))
  void app.register(
    async (scope) => {
      scope.removeAllContentTypeParsers()
      scope.addContentTypeParser("*", (_request, _payload, done) => done(null, undefined))
      const forward = (
        request: { raw: import("node:http").IncomingMessage },
        reply: { hijack: () => void; raw: import("node:http").ServerResponse }
      ) => {
        reply.hijack()
        request.raw.url = request.raw.url!.slice(prefix.length) || "/"
        voice.handler(request.raw, reply.raw)
      }
      scope.all("/", forward)
      scope.all("/*", forward)
    },
    { prefix }
  )
  app.addHook("onClose", async () => voice.dispose())
  return app
}
