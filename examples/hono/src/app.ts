import { WebHandler } from "@voice-agent-platform/http"
import { Redacted } from "effect"
import { Hono } from "hono"

/**
 * A Hono app with its own routes, and the Voice Agent Platform API under `/voice` as a web handler
 * (`Request → Response`). `mount` strips the prefix; the API reads the body itself.
 */
export const makeApp = (options: { readonly adminToken?: string | undefined } = {}) => {
  const voice = WebHandler.make({
    ...(options.adminToken === undefined ? {} : { adminToken: Redacted.make(options.adminToken) })
  })
  const app = new Hono()
  app.get("/hello", (c) => c.json({ hello: "from the host" }))
  app.post("/echo", async (c) => c.json({ received: await c.req.json() }))
  app.mount("/voice", voice.handler)
  return { app, dispose: voice.dispose }
}
