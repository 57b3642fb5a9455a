import { describe, expect, it } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { Effect, Layer, Schedule } from "effect"
import { Lookups } from "../../src/lookups/LookupCache.js"
import * as Migrations from "../../src/migrations/Migrations.js"
import {
  layerEmbedded,
  layerFreshDatabase,
  serverReachable,
  warnUnreachable
} from "../../testing/TestDatabase.js"

/**
 * The change feed behind the lookup cache, on both databases: the triggers of schema version 7 announce
 * every committed change to a key or an organization, and once the feed's fence has passed, the cache has
 * heard of every change committed before it.
 */
const feeds = (
  name: string,
  database: Layer.Layer<SqlClient.SqlClient | Lookups, unknown>,
  listener: "connection" | "in process"
) =>
  describe(`lookup feed: ${name}`, () => {
    const layer = Layer.merge(Migrations.layer, database).pipe(Layer.provideMerge(database))

    /** An organization with one key; answers their ids. */
    const organizationWithKey = Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const [organization] = yield* sql<{ id: number }>`
        INSERT INTO organizations (name, outbound_channels, balance, created_at)
        VALUES ('Feed test', 1, 0, now()) RETURNING id`
      const [key] = yield* sql<{ id: number }>`
        INSERT INTO api_keys (organization_id, key_hash, key_prefix, name, created_at)
        VALUES (${organization!.id}, ${`hash-${Math.random()}`}, 'vap_', 'Feed test key', now()) RETURNING id`
      return { organizationId: organization!.id, keyId: key!.id }
    })

    /** The feed once it listens (a PostgreSQL server's feed connects in the background). */
    const liveFeed = Effect.gen(function* () {
      const lookups = yield* Lookups
      yield* Effect.filterOrFail(
        lookups.fence,
        (passed) => passed,
        () => "not live yet"
      ).pipe(Effect.retry(Schedule.spaced("50 millis").pipe(Schedule.upTo("10 seconds"))))
      return lookups
    })

    it.live("drops an organization's entries once a change to its key, or to it, has committed", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const { cache, fence } = yield* liveFeed
        const { keyId, organizationId } = yield* organizationWithKey
        const other = yield* organizationWithKey
        const fill = () => {
          cache.fill("key:mine", String(organizationId), "mine", cache.generation)
          cache.fill("key:other", String(other.organizationId), "other", cache.generation)
        }

        fill()
        yield* sql`UPDATE api_keys SET revoked_at = now() WHERE id = ${keyId}`
        expect(yield* fence).toBe(true)
        expect([cache.get("key:mine"), cache.get("key:other")]).toEqual([undefined, "other"])

        fill()
        yield* sql`UPDATE organizations SET balance = balance + 1 WHERE id = ${organizationId}`
        expect(yield* fence).toBe(true)
        expect(cache.get("key:mine")).toBeUndefined()

        // a change rolled back is never announced
        fill()
        yield* sql`UPDATE organizations SET name = 'renamed' WHERE id = ${organizationId}`.pipe(
          Effect.zipRight(Effect.fail("roll back")),
          sql.withTransaction,
          Effect.ignore
        )
        expect(yield* fence).toBe(true)
        expect(cache.get("key:mine")).toBe("mine")

        // a new key is not announced (nothing missing is kept); a deleted one is
        yield* organizationWithKey
        expect(yield* fence).toBe(true)
        expect(cache.get("key:mine")).toBe("mine")
        // nor a key's use (version 11): it changes nothing a lookup answers
        yield* sql`UPDATE api_keys SET last_used_at = now() WHERE id = ${other.keyId}`
        expect(yield* fence).toBe(true)
        expect([cache.get("key:mine"), cache.get("key:other")]).toEqual(["mine", "other"])
        yield* sql`DELETE FROM api_keys WHERE id = ${keyId}`
        expect(yield* fence).toBe(true)
        expect([cache.get("key:mine"), cache.get("key:other")]).toEqual([undefined, "other"])
      }).pipe(Effect.provide(layer))
    )

    // only a feed with a connection of its own can lose it
    if (listener === "connection")
      it.live("keeps nothing while its listening connection is lost, and listens again by itself", () =>
        Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          const { cache, fence } = yield* liveFeed
          cache.fill("key:kept", "1", "kept", cache.generation)
          expect(cache.get("key:kept")).toBe("kept")
          yield* sql`
            SELECT pg_terminate_backend(pid) FROM pg_stat_activity
            WHERE application_name LIKE '%(lookups)' AND datname = current_database()`
          yield* Effect.filterOrFail(
            fence,
            (passed) => !passed,
            () => "still passing"
          ).pipe(Effect.retry(Schedule.spaced("20 millis").pipe(Schedule.upTo("5 seconds"))))
          expect(cache.get("key:kept")).toBeUndefined()
          yield* liveFeed
          expect(cache.get("key:kept")).toBeUndefined()
        }).pipe(Effect.provide(layer))
      )
  })

feeds("PGlite", layerEmbedded, "in process")
if (await serverReachable()) feeds("PostgreSQL", layerFreshDatabase, "connection")
else warnUnreachable("the lookup feed on PostgreSQL")
