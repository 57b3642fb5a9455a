// Hand-written baseline: node:http + the `pg` driver (a pool of DATABASE_MAX_CONNECTIONS, default 10, as
// the engine's), the four statements of `HandWrittenConversations`. Env: DATABASE_URL, PORT. Started by
// `npm run bench:http`.
import { createServer } from "node:http"
import pg from "pg"
import { handler } from "./HandWrittenConversations.js"

const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.DATABASE_MAX_CONNECTIONS ?? 10)
})
const port = Number(process.env.PORT)
createServer(
  handler((text, params) => pool.query(text, params as Array<unknown>).then((r) => r.rows))
).listen(port, "127.0.0.1", () => console.log(`hand-written pg listening on ${port}`))
