import { Context, type Effect } from "effect"

/** The channel on which the database announces changes to API keys, agents and organizations. */
export const channel = "vap_lookups"

/** The payload of a notification that concerns every organization (a TRUNCATE). */
export const everyOrganization = "*"

/** The most entries kept; when full, the cache is emptied and fills again with what is asked for. */
export const maxEntries = 10_000

/**
 * Lookups that every request makes (an API key by its hash, an agent by its id) kept in this process,
 * and dropped the moment the database says they changed.
 *
 * Correctness rests on four rules:
 * - an entry is used and kept only while the change feed is connected (`setLive(true)`); when it is
 *   lost, everything is dropped and every lookup goes to the database until it is back;
 * - a change to an organization's key, agent or record drops all of that organization's entries
 *   (`invalidate`), on the server that made it as soon as its statement returns, on every server when the
 *   database's notification arrives (at commit);
 * - a value read from the database is kept only if no change arrived while it was being read
 *   (`generation` before the read, `fill` after it): a read that raced a change is answered, not kept;
 * - a kept value is used only after the feed's fence (`Lookups`): every change committed before the
 *   lookup began has then arrived, so a key revoked on another server is refused at once here too.
 */
export class LookupCache {
  private readonly entries = new Map<string, { readonly organizationId: string; readonly value: unknown }>()
  private live = false
  private generationCount = 0

  /** Whether entries may be used now. */
  get isLive(): boolean {
    return this.live
  }

  /** Changes so far: a read that started at one generation and ends at another may be stale. */
  get generation(): number {
    return this.generationCount
  }

  /** How many entries are kept. */
  get size(): number {
    return this.entries.size
  }

  /** The feed is connected (true) or lost (false); either way, what was kept may have missed changes. */
  setLive(live: boolean): void {
    this.live = live
    this.invalidateAll()
  }

  /** Drops every entry of one organization (an id as text), or of all with `everyOrganization`. */
  invalidate(organizationId: string): void {
    if (organizationId === everyOrganization) return this.invalidateAll()
    this.generationCount++
    for (const [key, entry] of this.entries)
      if (entry.organizationId === organizationId) this.entries.delete(key)
  }

  /** Drops every entry. */
  invalidateAll(): void {
    this.generationCount++
    this.entries.clear()
  }

  /** The kept value, if the feed is live and there is one. */
  get<A>(key: string): A | undefined {
    return this.live ? (this.entries.get(key)?.value as A | undefined) : undefined
  }

  /** Keeps a value read from the database, unless a change arrived since `generation` was taken. */
  fill(key: string, organizationId: string, value: unknown, generation: number): void {
    if (!this.live || generation !== this.generationCount) return
    if (this.entries.size >= maxEntries) this.entries.clear()
    this.entries.set(key, { organizationId, value })
  }
}

/**
 * The process's lookup cache, provided by a database connection that feeds it changes, and its fence:
 * an effect that answers true once every change committed before it started has reached the cache (so a
 * kept value is at least as new as the moment the fence began), false when that cannot be known (the
 * cache must not be used then).
 */
export class Lookups extends Context.Tag("@voice-agent-platform/pg/Lookups")<
  Lookups,
  { readonly cache: LookupCache; readonly fence: Effect.Effect<boolean> }
>() {}
