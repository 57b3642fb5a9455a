// Hand-written baseline: node:http + PGlite in this process (its own query API, no socket), the four
// statements of `HandWrittenConversations`. Env: DATA_DIR (a PGlite data directory), PORT. Started by
// `npm run bench:http`.
import { PGlite } from "@electric-sql/pglite"
import { createServer } from "node:http"
import { handler } from "./HandWrittenConversations.js"

const db = await PGlite.create(process.env.DATA_DIR!)
const port = Number(process.env.PORT)
createServer(handler((text, params) => db.query(text, params as Array<unknown>).then((r) => r.rows))).listen(
  port,
  "127.0.0.1",
  () => console.log(`hand-written PGlite listening on ${port}`)
)
process.on("SIGTERM", () => void db.close().finally(() => process.exit(0)))
