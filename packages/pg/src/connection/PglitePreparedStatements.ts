import type { PGlite, QueryOptions, Results } from "@electric-sql/pglite"

/**
 * Statements kept prepared in PGlite's one session, by their text.
 *
 * PGlite's `query` sends each statement through the extended protocol as an unnamed statement: it is
 * parsed, analysed and planned again on every call, all in WebAssembly. For the runs list's first page
 * that was more than half of the statement's time (1.6–1.8 ms of 3.5–4.1 ms in a loop on PGlite,
 * `EXECUTE` of a prepared statement against `query`). A statement seen here is prepared once
 * (`PREPARE name AS <its text>`, sent through the extended protocol, which refuses a text of several
 * statements exactly as `query` does) and then run as `EXECUTE name(<its parameters>)`, PostgreSQL's plan cache
 * keeping its plan (the server's usual choice between custom and generic plans).
 *
 * The parameters become literals: only when every one is a safe integer or a string without NUL (an escape
 * string, `E'…'`, with `\` and `'` doubled: read the same whatever the session's
 * `standard_conforming_strings`), which PostgreSQL reads exactly as it reads a
 * text parameter of the statement's inferred type. A statement with any other parameter (a Date, JSON
 * object, bytes, a boolean, null) runs as before. Only statements outside a transaction are prepared or
 * run this way, so that a failed `EXECUTE` (the statement's table changed shape since it was prepared,
 * `cached plan must not change result type`) can drop the statement and run it as before, which a
 * transaction could not survive. A statement PostgreSQL refuses to prepare is remembered and runs as
 * before. At most `capacity` texts are remembered; past that, new ones run as before.
 */
export class PglitePreparedStatements {
  readonly #names = new Map<string, string | null>()
  #next = 0

  constructor(
    private readonly db: PGlite,
    private readonly capacity = 256
  ) {}

  /** The statement's results through a prepared statement, or `undefined` when it is not run that way. */
  async query(
    sql: string,
    params: ReadonlyArray<unknown>,
    options: QueryOptions
  ): Promise<Results<any> | undefined> {
    const literals = literalsOf(params)
    if (literals === undefined) return undefined
    const name = await this.#prepared(sql)
    if (name === null) return undefined
    try {
      return await this.db.query(`EXECUTE ${name}(${literals})`, [], options)
    } catch (error) {
      if (!isStale(error)) throw error
      this.#names.delete(sql)
      await this.db.exec(`DEALLOCATE ${name}`).catch(() => undefined)
      return undefined
    }
  }

  async #prepared(sql: string): Promise<string | null> {
    const known = this.#names.get(sql)
    if (known !== undefined) return known
    if (this.#names.size >= this.capacity) return null
    const name = `vap_prepared_${++this.#next}`
    const prepared = await this.db.query(`PREPARE ${name} AS ${sql}`).then(
      () => name,
      () => null
    )
    this.#names.set(sql, prepared)
    return prepared
  }
}

/** The parameters as SQL literals, or `undefined` if one is not a safe integer or a string without NUL. */
const literalsOf = (params: ReadonlyArray<unknown>): string | undefined => {
  const literals: Array<string> = []
  for (const param of params) {
    if (typeof param === "number" && Number.isSafeInteger(param)) literals.push(`'${param}'`)
    else if (typeof param === "string" && !param.includes("\u0000"))
      literals.push(`E'${param.replaceAll("\\", "\\\\").replaceAll("'", "''")}'`)
    else return undefined
  }
  return literals.join(", ")
}

/** The prepared statement is gone or no longer fits its tables: prepare it again. */
const isStale = (error: unknown): boolean => {
  const code = (error as { readonly code?: unknown } | null)?.code
  return (
    code === "26000" ||
    (code === "0A000" && String((error as Error).message).includes("must not change result type"))
  )
}
