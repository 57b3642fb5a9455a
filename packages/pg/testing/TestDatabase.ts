import { SqlClient } from "@effect/sql"
import { Effect, Layer, Redacted } from "effect"
import pg from "pg"
import * as crypto from "node:crypto"
import * as EmbeddedPostgres from "../src/connection/EmbeddedPostgres.js"
import type { Lookups } from "../src/lookups/LookupCache.js"
import * as PgConnection from "../src/connection/PgConnection.js"
import * as SecretBox from "../src/secrets/SecretBox.js"

/**
 * The PostgreSQL server the tests use: `TEST_DATABASE_URL`, by default the machine's server on
 * 127.0.0.1:5432 (the `postgres` role, trust authentication). Each test file works in a database of its
 * own, created for it and dropped after it, so files running in parallel never meet.
 */
export const serverUrl = process.env["TEST_DATABASE_URL"] ?? "postgres://postgres@127.0.0.1:5432/postgres"

/** The URL of another database on the same server. */
export const databaseUrl = (database: string): string => {
  const url = new URL(serverUrl)
  url.pathname = `/${database}`
  return url.toString()
}

/** Whether the server answers; asked once per file, before the suites are declared. */
export const serverReachable = async (): Promise<boolean> => {
  const client = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 3000 })
  try {
    await client.connect()
    await client.query("SELECT 1")
    return true
  } catch {
    return false
  } finally {
    await client.end().catch(() => undefined)
  }
}

/** Says loudly that the PostgreSQL suites did not run. */
export const warnUnreachable = (what: string) =>
  console.warn(
    `\n!!! PostgreSQL is not reachable at ${new URL(serverUrl).host}: ${what} SKIPPED.\n` +
      `!!! Start it (see README) or set TEST_DATABASE_URL to run them.\n`
  )

const admin = async <A>(work: (client: pg.Client) => Promise<A>): Promise<A> => {
  const client = new pg.Client({ connectionString: serverUrl })
  await client.connect()
  try {
    return await work(client)
  } finally {
    await client.end()
  }
}

/** Creates an empty database with a fresh name and answers the name. */
export const createDatabase = (): Promise<string> => {
  const name = `vap_test_${crypto.randomBytes(6).toString("hex")}`
  return admin((client) => client.query(`CREATE DATABASE ${name}`)).then(() => name)
}

/** Drops a database made by `createDatabase`, closing whatever still uses it. */
export const dropDatabase = (name: string): Promise<void> =>
  admin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined)

/** A fresh database for the layer's lifetime, dropped when its scope ends. */
export const layerFreshDatabase: Layer.Layer<SqlClient.SqlClient | Lookups, unknown> = Layer.unwrapScoped(
  Effect.map(
    Effect.acquireRelease(Effect.promise(createDatabase), (name) => Effect.promise(() => dropDatabase(name))),
    (name) => PgConnection.layer({ url: Redacted.make(databaseUrl(name)) })
  )
)

/** An embedded database in memory, for the length of the layer. */
export const layerEmbedded: Layer.Layer<SqlClient.SqlClient | Lookups, unknown> = EmbeddedPostgres.layer()

/** A secret box with a random key, as a test needs no particular one. */
export const layerSecretBox = SecretBox.layer(Redacted.make(crypto.randomBytes(32).toString("base64")))

/** Rows of one query on a database made by `createDatabase`: how a test looks beneath the API. */
export const query = <Row>(
  database: string,
  text: string,
  values: ReadonlyArray<unknown> = []
): Promise<Array<Row>> =>
  (async () => {
    const client = new pg.Client({ connectionString: databaseUrl(database) })
    await client.connect()
    try {
      return (await client.query(text, [...values])).rows as Array<Row>
    } finally {
      await client.end()
    }
  })()
