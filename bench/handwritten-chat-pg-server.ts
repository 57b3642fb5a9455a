// Hand-written baseline of `npm run bench:chat` on PostgreSQL: node:http + the `pg` driver (a pool of
// DATABASE_MAX_CONNECTIONS, default 10, as the engine's), the statements of `HandWrittenChat`. Env:
// DATABASE_URL, LLM_BASE_URL (the model), PORT.
import { createServer } from "node:http"
import pg from "pg"
import { handler } from "./HandWrittenChat.js"

const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.DATABASE_MAX_CONNECTIONS ?? 10)
})
const port = Number(process.env.PORT)
const database = {
  query: (text: string, params: ReadonlyArray<unknown>) =>
    pool.query(text, params as Array<unknown>).then((r) => r.rows),
  transaction: async <A>(
    work: (query: (text: string, params: ReadonlyArray<unknown>) => Promise<ReadonlyArray<any>>) => Promise<A>
  ) => {
    const client = await pool.connect()
    try {
      await client.query("BEGIN")
      const result = await work((text, params) =>
        client.query(text, params as Array<unknown>).then((r) => r.rows)
      )
      await client.query("COMMIT")
      return result
    } catch (error) {
      await client.query("ROLLBACK").catch(() => undefined)
      throw error
    } finally {
      client.release()
    }
  }
}
createServer(handler(database, process.env.LLM_BASE_URL!)).listen(port, "127.0.0.1", () =>
  console.log(`hand-written chat (pg) listening on ${port}`)
)
