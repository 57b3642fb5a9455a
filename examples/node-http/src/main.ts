import { makeServer } from "./app.js"

const port = Number(process.env.PORT ?? 3000)
const { server, dispose } = makeServer({ adminToken: process.env.ADMIN_TOKEN })
server.listen(port, "127.0.0.1", () => {
  console.log(`node:http host listening on http://127.0.0.1:${port} (the API under /voice)`)
})
const stop = () => server.close(() => void dispose().then(() => process.exit(0)))
process.once("SIGTERM", stop)
process.once("SIGINT", stop)
