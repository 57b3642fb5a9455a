import type { Stores } from "../src/storage/Stores.js"
import type { Vitest } from "@effect/vitest"
import { describe, expect } from "@effect/vitest"
import { Effect, Option } from "effect"
import { DocumentStore } from "../src/knowledge-base/DocumentStore.js"
import * as Fixtures from "./Fixtures.js"
import { at } from "./ContractFixtures.js"

/** The storage contract for the knowledge base's search and processing queue; `storeContract` runs it against every adapter. */
export const documentStoreContract = (it: Vitest.MethodsNonLive<Stores>) => {
  describe("knowledge-base search", () => {
    it.effect(
      "finds the organization's completed, active chunks by word, diacritics and case aside, at most a page",
      () =>
        Effect.gen(function* () {
          const documents = yield* DocumentStore
          const org = yield* Fixtures.organization()
          const other = yield* Fixtures.organization()
          const suffix = yield* Fixtures.unique()
          const stored = (
            organizationId: typeof org.id,
            name: string,
            texts: ReadonlyArray<string>,
            overrides = {}
          ) =>
            Effect.gen(function* () {
              const document = yield* documents.insert(
                Fixtures.newDocument(organizationId, `${suffix}-${name}`, {
                  processing_status: "completed",
                  ...overrides
                }),
                at(texts.length)
              )
              yield* documents.replaceChunks(
                organizationId,
                document.id,
                texts.map((text, index) => ({
                  document_id: document.id,
                  organization_id: organizationId,
                  index,
                  text
                }))
              )
              return document
            })
          const turtles = yield* stored(org.id, "turtles", [
            "Żółw morski pływa powoli.",
            "Opening hours: Monday to Friday.",
            "ŻÓŁW, żółw i jeszcze raz żółw: the turtle page."
          ])
          yield* stored(org.id, "pending", ["żółw pending"], { processing_status: "pending" })
          yield* stored(org.id, "inactive", ["żółw inactive"], { is_active: false })
          yield* stored(other.id, "foreign", ["żółw of another organization"])
          const hits = yield* documents.search(org.id, ["zolw"], 10)
          // the chunk saying it three times ranks above the one saying it once; nothing else matches
          expect(hits.map((h) => [h.document.id, h.chunk.index, h.chunk.text])).toEqual([
            [turtles.id, 2, "ŻÓŁW, żółw i jeszcze raz żółw: the turtle page."],
            [turtles.id, 0, "Żółw morski pływa powoli."]
          ])
          expect(hits[0]!.score).toBeGreaterThan(hits[1]!.score)
          expect(hits.every((h) => h.score > 0 && h.chunk.organization_id === org.id)).toBe(true)
          // any of the terms matches
          expect(
            (yield* documents.search(org.id, ["monday", "nothing"], 10)).map((h) => h.chunk.index)
          ).toEqual([1])
          expect(yield* documents.search(org.id, ["absent"], 10)).toEqual([])
          expect(yield* documents.search(org.id, [], 10)).toEqual([])

          // many matches: a page at most, ties to the newer document then the earlier chunk
          const many = yield* stored(
            org.id,
            "many",
            Array.from({ length: 30 }, (_, i) => `Faktura numer ${i} do zapłaty`)
          )
          const page = yield* documents.search(org.id, ["faktura"], 5)
          expect(page.map((h) => [h.document.id, h.chunk.index])).toEqual(
            [0, 1, 2, 3, 4].map((index) => [many.id, index])
          )
          expect((yield* documents.search(org.id, ["faktura"], 50)).length).toBe(30)
          // the removed document's chunks go with it
          yield* documents.remove(org.id, many.id)
          expect(yield* documents.search(org.id, ["faktura"], 5)).toEqual([])
        })
    )
  })

  describe("knowledge-base search within documents", () => {
    it.effect("finds only chunks of the documents named, and nothing for an empty list", () =>
      Effect.gen(function* () {
        const documents = yield* DocumentStore
        const org = yield* Fixtures.organization()
        const other = yield* Fixtures.organization()
        const suffix = yield* Fixtures.unique()
        const stored = (organizationId: typeof org.id, name: string, text: string) =>
          Effect.gen(function* () {
            const document = yield* documents.insert(
              Fixtures.newDocument(organizationId, `${suffix}-${name}`, { processing_status: "completed" }),
              at(0)
            )
            yield* documents.replaceChunks(organizationId, document.id, [
              { document_id: document.id, organization_id: organizationId, index: 0, text }
            ])
            return document
          })
        const prices = yield* stored(org.id, "prices", "Cennik: wizyta kosztuje 200 zł.")
        const hours = yield* stored(org.id, "hours", "Wizyta od poniedziałku do piątku.")
        yield* stored(org.id, "unrelated", "Parking za budynkiem; wizyta bez opłat.")
        const foreign = yield* stored(other.id, "foreign", "Wizyta w innej organizacji.")
        const found = (ids?: ReadonlyArray<typeof prices.id>) =>
          Effect.map(documents.search(org.id, ["wizyta"], 10, ids), (hits) =>
            hits.map((hit) => hit.document.id).sort((a, b) => a - b)
          )
        expect((yield* found()).length).toBe(3)
        expect(yield* found([prices.id, hours.id])).toEqual([prices.id, hours.id].sort((a, b) => a - b))
        expect(yield* found([hours.id])).toEqual([hours.id])
        // another organization's document is never found, named or not
        expect(yield* found([foreign.id])).toEqual([])
        expect(yield* found([])).toEqual([])
      })
    )
  })

  describe("knowledge-base processing queue", () => {
    it.effect("hands each unfinished document to exactly one of many simultaneous claims, oldest first", () =>
      Effect.gen(function* () {
        const documents = yield* DocumentStore
        const org = yield* Fixtures.organization()
        const suffix = yield* Fixtures.unique()
        // older than every other test's documents, so that these are claimed first
        const long = (seconds: number) => new Date(Date.UTC(2000, 0, 1) + seconds * 1000)
        const pending = yield* Effect.forEach([0, 1, 2, 3, 4], (i) =>
          documents.insert(Fixtures.newDocument(org.id, `${suffix}-${i}`), long(i))
        )
        // processing since long(10): stale only for a claim that says so
        const stuck = yield* documents.insert(
          Fixtures.newDocument(org.id, `${suffix}-stuck`, { processing_status: "processing" }),
          long(10)
        )
        yield* documents.insert(
          Fixtures.newDocument(org.id, `${suffix}-done`, { processing_status: "completed" }),
          long(-1)
        )
        const now = long(100)
        const claims = yield* Effect.all(
          Array.from({ length: 5 }, () => documents.claimNext(now, long(5))),
          { concurrency: "unbounded" }
        )
        const claimed = claims.map((c) => Option.getOrThrow(c))
        const byId = (a: number, b: number) => a - b
        expect(claimed.map((d) => d.id).sort(byId)).toEqual(pending.map((d) => d.id).sort(byId))
        expect(
          claimed.every(
            (d) => d.processing_status === "processing" && d.updated_at.getTime() === now.getTime()
          )
        ).toBe(true)
        // the stuck one is not stale before long(10) (another test's document may be claimed instead), and is
        // at long(10), before every other test's
        const next = yield* documents.claimNext(now, long(9))
        expect(Option.isSome(next) && next.value.id === stuck.id).toBe(false)
        const stale = yield* documents.claimNext(now, long(10))
        expect(Option.map(stale, (d) => d.id)).toEqual(Option.some(stuck.id))
      })
    )
  })
}
