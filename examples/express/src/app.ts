import { NodeHandler } from "@voice-agent-platform/http"
import { Redacted } from "effect"
import express from "express"

/**
 * An Express service with its own routes and body parser, and the Voice Agent Platform API under
 * `/voice`. The API reads request bodies itself, so it is mounted before `express.json()`.
 */
export const makeApp = (options: { readonly adminToken?: string | undefined } = {}) => {
  const voice = NodeHandler.make({
    ...(options.adminToken === undefined ? {} : { adminToken: Redacted.make(options.adminToken) })
  })
  const app = express()
  // Express strips the mount path: the API sees /health, /api/v1/..., /admin/v1/...
  app.use("/voice", voice.handler)
  app.use(express.json())
  app.get("/hello", (_request, response) => {
    response.json({ hello: "from the host" })
  })
  app.post("/echo", (request, response) => {
    response.json({ received: request.body })
  })
  return { app, dispose: voice.dispose }
}
