import { serve } from "@hono/node-server"
import { makeApp } from "./app.js"

const port = Number(process.env.PORT ?? 3000)
const { app, dispose } = makeApp({ adminToken: process.env.ADMIN_TOKEN })
const server = serve({ fetch: app.fetch, port, hostname: "127.0.0.1" }, () => {
  console.log(`Hono host listening on http://127.0.0.1:${port} (the API under /voice)`)
})
const stop = () => server.close(() => void dispose().then(() => process.exit(0)))
process.once("SIGTERM", stop)
process.once("SIGINT", stop)
