import { describe, expect, it } from "@effect/vitest"
import { FastCheck } from "effect"
import { everyOrganization, LookupCache, maxEntries } from "../../src/lookups/LookupCache.js"

const live = () => {
  const cache = new LookupCache()
  cache.setLive(true)
  return cache
}

describe("LookupCache", () => {
  it("keeps nothing and answers nothing until the change feed is live, and forgets all when it is lost", () => {
    const cache = new LookupCache()
    cache.fill("key:a", "1", "A", cache.generation)
    expect(cache.get("key:a")).toBeUndefined()
    cache.setLive(true)
    cache.fill("key:a", "1", "A", cache.generation)
    expect(cache.get("key:a")).toBe("A")
    cache.setLive(false)
    expect(cache.get("key:a")).toBeUndefined()
    cache.setLive(true)
    expect(cache.get("key:a")).toBeUndefined()
  })

  it("drops one organization's entries on its change, every entry on a change to all", () => {
    const cache = live()
    cache.fill("key:a", "1", "A", cache.generation)
    cache.fill("agent:1:x", "1", "X", cache.generation)
    cache.fill("key:b", "2", "B", cache.generation)
    cache.invalidate("1")
    expect([cache.get("key:a"), cache.get("agent:1:x"), cache.get("key:b")]).toEqual([
      undefined,
      undefined,
      "B"
    ])
    cache.invalidate(everyOrganization)
    expect(cache.get("key:b")).toBeUndefined()
  })

  it("does not keep a value read while a change arrived: a read that raced a revocation is not kept", () => {
    const cache = live()
    const before = cache.generation
    cache.invalidate("7") // the change arrives while the database is being read
    cache.fill("key:revoked", "7", "stale", before)
    expect(cache.get("key:revoked")).toBeUndefined()
    cache.fill("key:revoked", "7", "fresh", cache.generation)
    expect(cache.get("key:revoked")).toBe("fresh")
  })

  it("holds at most maxEntries, emptying itself when full", () => {
    const cache = live()
    for (let i = 0; i <= maxEntries; i++) cache.fill(`key:${i}`, "1", i, cache.generation)
    expect(cache.size).toBeLessThanOrEqual(maxEntries)
    expect(cache.get(`key:${maxEntries}`)).toBe(maxEntries)
  })

  // Any interleaving of fills (each from a read that began at some earlier generation), changes and
  // feed losses: whatever the cache answers is the last value filled for that key with no change to its
  // organization (nor loss of the feed) since the read behind it began.
  const operation = FastCheck.oneof(
    FastCheck.record({
      kind: FastCheck.constant("fill" as const),
      key: FastCheck.integer({ min: 0, max: 5 }),
      organization: FastCheck.integer({ min: 0, max: 2 }),
      startedBack: FastCheck.integer({ min: 0, max: 3 })
    }),
    FastCheck.record({
      kind: FastCheck.constant("change" as const),
      organization: FastCheck.integer({ min: 0, max: 2 })
    }),
    FastCheck.record({ kind: FastCheck.constant("lost" as const) })
  )

  it.prop(
    "never answers a value older than a change to its organization",
    [FastCheck.array(operation)],
    ([ops]) => {
      const cache = live()
      // The history of changes: the generation at which each happened, and to which organization.
      const changes: Array<{ readonly generation: number; readonly organization: string | "all" }> = []
      const generations: Array<number> = [cache.generation]
      const model = new Map<string, { readonly organization: string; readonly value: number }>()
      let counter = 0
      for (const op of ops) {
        if (op.kind === "change") {
          const organization = String(op.organization)
          cache.invalidate(organization)
          changes.push({ generation: cache.generation, organization })
          for (const [key, entry] of model) if (entry.organization === organization) model.delete(key)
        } else if (op.kind === "lost") {
          cache.setLive(false)
          cache.setLive(true)
          changes.push({ generation: cache.generation, organization: "all" })
          model.clear()
        } else {
          const organization = String(op.organization)
          const key = `k${op.key}:${organization}`
          const began = generations[Math.max(0, generations.length - 1 - op.startedBack)]!
          const value = counter++
          cache.fill(key, organization, value, began)
          const missed = changes.some((c) => c.generation > began)
          if (!missed) model.set(key, { organization, value })
        }
        generations.push(cache.generation)
        for (const [key, entry] of model) expect(cache.get(key)).toBe(entry.value)
        for (let k = 0; k <= 5; k++)
          for (let o = 0; o <= 2; o++) {
            const key = `k${k}:${o}`
            const answered = cache.get<number>(key)
            if (answered !== undefined) expect(model.get(key)?.value).toBe(answered)
          }
      }
    }
  )
})
