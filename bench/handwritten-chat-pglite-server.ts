// Hand-written baseline of `npm run bench:chat` on the embedded database: node:http + PGlite in this
// process (its own query API, no socket), the statements of `HandWrittenChat`. Env: DATA_DIR (a PGlite
// data directory), LLM_BASE_URL (the model), PORT.
import { PGlite } from "@electric-sql/pglite"
import { createServer } from "node:http"
import { handler } from "./HandWrittenChat.js"

const db = await PGlite.create(process.env.DATA_DIR!)
const port = Number(process.env.PORT)
const database = {
  query: (text: string, params: ReadonlyArray<unknown>) =>
    db.query(text, params as Array<unknown>).then((r) => r.rows as ReadonlyArray<any>),
  transaction: <A>(
    work: (query: (text: string, params: ReadonlyArray<unknown>) => Promise<ReadonlyArray<any>>) => Promise<A>
  ) =>
    db.transaction((tx) =>
      work((text, params) =>
        tx.query(text, params as Array<unknown>).then((r) => r.rows as ReadonlyArray<any>)
      )
    )
}
createServer(handler(database, process.env.LLM_BASE_URL!)).listen(port, "127.0.0.1", () =>
  console.log(`hand-written chat (PGlite) listening on ${port}`)
)
process.on("SIGTERM", () => void db.close().finally(() => process.exit(0)))
