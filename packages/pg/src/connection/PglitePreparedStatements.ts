import type { PGlite, QueryOptions, Results } from "@electric-sql/pglite"

/**
 * Statements kept prepared in PGlite's one session, by their text.
 *
 * PGlite's `query` sends each statement through the extended protocol as an unnamed statement: it is
 * parsed, analysed and planned again on every call, all in WebAssembly. For the runs list's first page
 * that was more than half of the statement's time (1.6–1.8 ms of 3.5–4.1 ms in a loop on PGlite,
 * `EXECUTE` of a prepared statement against `query`). A statement seen here is prepared once
 * (`PREPARE name AS <its text>`, sent through the extended protocol, which refuses a text of several
 * statements exactly as `query` does) and then run as `EXECUTE name(<its parameters>)`, PostgreSQL's plan
 * cache keeping its plan (the server's usual choice between custom and generic plans).
 *
 * The parameters become literals, `E'…'` with `\` and `'` doubled (read the same whatever the session's
 * `standard_conforming_strings`), and only where the literal is read as PGlite's `query` would send the
 * value: PGlite serialises a bound value by the parameter's type (a number into `timestamptz` becomes a
 * date, a string into `bytea` is refused, a boolean is mapped), and the literal is read by the type's own
 * input function. So, after preparing, the statement's inferred parameter types are read
 * (`pg_prepared_statements`), and the statement is kept only when every type is one whose input reads the
 * JS value's text as PGlite's serialiser writes it (`sameReading`, for PGlite's default serialisers,
 * which this client never overrides): text-like, integer, float, numeric, uuid, JSON types for safe
 * integers and strings without NUL, and date/time types for strings only. Any other statement (or value:
 * a Date, bytes, a boolean, null, a number for a date) runs as before, unprepared.
 *
 * Only statements outside a transaction are prepared or run this way, so that a failed `EXECUTE` (the
 * statement's table changed shape since it was prepared, `cached plan must not change result type`) can
 * drop the statement and run it as before, which a transaction could not survive. A statement PostgreSQL
 * refuses to prepare is remembered and runs as before, unless it was refused because a table or column it
 * names does not exist yet (a later migration may create it). At most `capacity` texts are remembered;
 * past that, new ones run as before.
 */
export class PglitePreparedStatements {
  readonly #statements = new Map<string, Prepared | null>()

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
    if (!params.every(isLiteral)) return undefined
    const prepared = await this.#prepared(sql)
    if (prepared === null) return undefined
    const literals = literalsOf(params, prepared.types)
    if (literals === undefined) return undefined
    try {
      return await this.db.query(`EXECUTE ${prepared.name}(${literals})`, [], options)
    } catch (error) {
      if (!isStale(error)) throw error
      this.#statements.delete(sql)
      await this.#deallocate(prepared.name)
      return undefined
    }
  }

  async #prepared(sql: string): Promise<Prepared | null> {
    const known = this.#statements.get(sql)
    if (known !== undefined) return known
    if (this.#statements.size >= this.capacity) return null
    const name = `vap_prepared_${++named}`
    try {
      await this.db.query(`PREPARE ${name} AS ${sql}`)
    } catch (error) {
      if (!isMissingYet(error)) this.#statements.set(sql, null)
      return null
    }
    const types = await this.#parameterTypes(name)
    const prepared = types?.every((type) => sameReading.has(type)) ? { name, types } : null
    if (prepared === null) await this.#deallocate(name)
    this.#statements.set(sql, prepared)
    return prepared
  }

  /** The prepared statement's inferred parameter types (their oids), in order. */
  async #parameterTypes(name: string): Promise<ReadonlyArray<number> | undefined> {
    const result = await this.db.query<{ types: string }>(
      "SELECT array_to_string(parameter_types::oid[], ',') AS types FROM pg_prepared_statements WHERE name = $1",
      [name]
    )
    const types = result.rows[0]?.types
    if (types === undefined) return undefined
    return types === "" ? [] : types.split(",").map(Number)
  }

  #deallocate(name: string): Promise<unknown> {
    return this.db.query(`DEALLOCATE ${name}`).catch(() => undefined)
  }
}

/** Names are numbered in the process, so that two clients over one database never take the same name. */
let named = 0

interface Prepared {
  readonly name: string
  readonly types: ReadonlyArray<number>
}

/**
 * For each parameter type (oid), which JS values' literal the type's input reads exactly as it reads
 * PGlite's serialisation of the value: `any` (safe integers and strings), or `string` only.
 */
const sameReading = new Map<number, "any" | "string">([
  [25, "any"], // text: PGlite sends String(value)
  [1043, "any"], // varchar
  [1042, "any"], // bpchar
  [19, "any"], // name (no PGlite serialiser: String(value))
  [21, "any"], // int2
  [23, "any"], // int4
  [20, "any"], // int8
  [26, "any"], // oid
  [700, "any"], // float4
  [701, "any"], // float8
  [1700, "any"], // numeric (no PGlite serialiser)
  [2950, "any"], // uuid (no PGlite serialiser)
  [114, "any"], // json: a string as is, a number as JSON.stringify (its digits)
  [3802, "any"], // jsonb
  [1082, "string"], // date: a string as is (a number would become an ISO date)
  [1114, "string"], // timestamp
  [1184, "string"] // timestamptz
])

/** A value that can be written as a literal at all: a safe integer, or a string without NUL. */
const isLiteral = (param: unknown): param is number | string =>
  (typeof param === "number" && Number.isSafeInteger(param)) ||
  (typeof param === "string" && !param.includes("\u0000"))

/**
 * The parameters as SQL literals, or `undefined` if one is read differently as a literal than bound: an
 * escape string (`E'…'`, `\` and `'` doubled), so that `standard_conforming_strings` does not matter.
 */
const literalsOf = (
  params: ReadonlyArray<number | string>,
  types: ReadonlyArray<number>
): string | undefined => {
  if (params.length !== types.length) return undefined
  const literals: Array<string> = []
  for (let i = 0; i < params.length; i++) {
    const param = params[i]!
    const reading = sameReading.get(types[i]!)
    if (reading === undefined || (reading === "string" && typeof param !== "string")) return undefined
    literals.push(`E'${String(param).replaceAll("\\", "\\\\").replaceAll("'", "''")}'`)
  }
  return literals.join(", ")
}

/** The statement names a table or column that does not exist (yet): try preparing it again later. */
const isMissingYet = (error: unknown): boolean => {
  const code = (error as { readonly code?: unknown } | null)?.code
  return code === "42P01" || code === "42703"
}

/** The prepared statement is gone or no longer fits its tables: prepare it again. */
const isStale = (error: unknown): boolean => {
  const code = (error as { readonly code?: unknown } | null)?.code
  return (
    code === "26000" ||
    (code === "0A000" && String((error as Error).message).includes("must not change result type"))
  )
}
