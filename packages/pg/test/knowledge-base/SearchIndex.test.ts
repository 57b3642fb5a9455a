import { describe, expect, it } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import type { DocumentId } from "@voice-agent-platform/core/knowledge-base/Document.js"
import { DocumentStore } from "@voice-agent-platform/core/knowledge-base/DocumentStore.js"
import { Fixtures } from "@voice-agent-platform/core/testing"
import { Effect, Layer } from "effect"
import { searchStatement } from "../../src/knowledge-base/PgDocumentStore.js"
import * as PgStorage from "../../src/storage/PgStorage.js"
import {
  layerEmbedded,
  layerFreshDatabase,
  layerSecretBox,
  serverReachable,
  warnUnreachable
} from "../../testing/TestDatabase.js"

const reachable = await serverReachable()
if (!reachable) warnUnreachable("the knowledge-base search plan on PostgreSQL")

/** Words enough that a term is rare among the chunks, as in a real knowledge base. */
const vocabulary = Array.from({ length: 400 }, (_, i) => `word${i.toString(36)}`)

const searchPlan = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const documents = yield* DocumentStore
  const org = yield* Fixtures.organization()
  const suffix = yield* Fixtures.unique()
  const stored: Array<DocumentId> = []
  for (let d = 0; d < 2; d++) {
    const document = yield* documents.insert(
      Fixtures.newDocument(org.id, `${suffix}-${d}`, { processing_status: "completed" }),
      Fixtures.epoch
    )
    yield* documents.replaceChunks(
      org.id,
      document.id,
      Array.from({ length: 200 }, (_, index) => ({
        document_id: document.id,
        organization_id: org.id,
        index,
        // each word in 12 of the 400 chunks
        text: Array.from({ length: 12 }, (_, w) => vocabulary[((d * 200 + index) * 12 + w) % 400]!).join(" ")
      }))
    )
    stored.push(document.id)
  }
  yield* sql`ANALYZE document_chunks`
  yield* sql`ANALYZE documents`
  const hits = yield* documents.search(org.id, ["word5"], 5)
  expect(hits.length).toBeGreaterThan(0)
  expect(hits.length).toBeLessThanOrEqual(5)
  // A test table is small enough that a sequential scan is cheaper; with it priced out, the plan shows
  // whether the query can use the index at all (an expression that did not match it could not).
  // an agent's documents: only chunks of those
  const within = yield* documents.search(org.id, ["word5"], 50, [stored[1]!])
  expect(within.length).toBeGreaterThan(0)
  expect(within.every((hit) => hit.document.id === stored[1])).toBe(true)
  const planOf = (documentIds?: ReadonlyArray<DocumentId>) =>
    Effect.map(
      sql.withTransaction(
        Effect.zipRight(
          sql`SET LOCAL enable_seqscan = off`,
          sql<{ "QUERY PLAN": string }>`EXPLAIN ${searchStatement(sql, org.id, ["word5"], 5, documentIds)}`
        )
      ),
      (plan) => plan.map((row) => row["QUERY PLAN"]).join("\n")
    )
  return { all: yield* planOf(), within: yield* planOf([stored[1]!]) }
})

describe("knowledge-base search in the database", () => {
  it.live(
    "finds the matching chunks through the full-text index (embedded PGlite)",
    () =>
      Effect.gen(function* () {
        const plans = yield* searchPlan
        for (const plan of [plans.all, plans.within]) {
          expect(plan).toContain("document_chunks_search")
          expect(plan).toMatch(/Limit/)
        }
      }).pipe(
        Effect.provide(PgStorage.layer.pipe(Layer.provideMerge(Layer.merge(layerEmbedded, layerSecretBox))))
      ),
    60_000
  )

  it.live.skipIf(!reachable)(
    "finds the matching chunks through the full-text index (PostgreSQL)",
    () =>
      Effect.gen(function* () {
        const plans = yield* searchPlan
        for (const plan of [plans.all, plans.within]) {
          expect(plan).toContain("document_chunks_search")
          expect(plan).toMatch(/Limit/)
        }
      }).pipe(
        Effect.provide(
          PgStorage.layer.pipe(Layer.provideMerge(Layer.merge(layerFreshDatabase, layerSecretBox)))
        )
      ),
    60_000
  )
})
