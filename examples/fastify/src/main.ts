import { makeApp } from "./app.js"

const port = Number(process.env.PORT ?? 3000)
const app = makeApp({ adminToken: process.env.ADMIN_TOKEN })
await app.listen({ port, host: "127.0.0.1" })
console.log(`Fastify host listening on http://127.0.0.1:${port} (the API under /voice)`)
const stop = () => void app.close().then(() => process.exit(0))
process.once("SIGTERM", stop)
process.once("SIGINT", stop)
