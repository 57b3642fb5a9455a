import { Option } from "effect"
import type { OrganizationId } from "../organizations/Organization.js"
import * as Page from "../pagination/Page.js"
import type { MemoryTable } from "./MemoryDatabase.js"
import { newestFirst } from "./MemoryDatabase.js"

/** A row that belongs to one organization, or to none yet (a number still in the inventory). */
export interface OrganizationRow {
  readonly organization_id: OrganizationId | null
}

/** Where a row stands in a list: the newest `at` first, ties broken by the higher `id`. */
export interface Chronology<V> {
  readonly at: (row: V) => Date
  readonly id: (row: V) => number | string
}

/** The usual list order: by `created_at`, then by `id`. */
export const byCreation: Chronology<{ readonly created_at: Date; readonly id: number | string }> = {
  at: (row) => row.created_at,
  id: (row) => row.id
}

/** The row only if it belongs to the organization: another organization's rows do not exist for it. */
export const ownedBy = <V extends OrganizationRow>(
  organizationId: OrganizationId,
  row: V | undefined
): V | undefined => (row?.organization_id === organizationId ? row : undefined)

/**
 * A table whose rows belong to organizations, read and written one organization at a time. Like the
 * table itself it is synchronous: callers run it inside `MemoryTables.atomically`.
 */
export interface OrganizationTable<K, V extends OrganizationRow> extends MemoryTable<K, V> {
  /** The row under `key` if it belongs to the organization. */
  readonly own: (organizationId: OrganizationId, key: K) => V | undefined
  /** The same, as the ports' `find` answers it. */
  readonly findOwn: (organizationId: OrganizationId, key: K) => Option.Option<V>
  /** The organization's rows that pass `keep`, in no particular order, as a fresh array to sort at will. */
  readonly ownRows: (organizationId: OrganizationId, keep?: (row: V) => boolean) => Array<V>
  /** One page of the organization's rows that pass `keep`, newest first. */
  readonly newestPage: (
    organizationId: OrganizationId,
    page: Page.PageRequest,
    keep?: (row: V) => boolean
  ) => Page.Page<V>
  /**
   * Replaces the organization's row under `key` with `change(row)`. None when the row is missing,
   * another organization's, or refused by `onlyIf` (a compare-and-set on the row's current state).
   */
  readonly replaceOwn: (
    organizationId: OrganizationId,
    key: K,
    change: (row: V) => V,
    onlyIf?: (row: V) => boolean
  ) => Option.Option<V>
  /** Deletes the organization's row under `key` and answers it; None when there was none of theirs. */
  readonly removeOwn: (organizationId: OrganizationId, key: K) => Option.Option<V>
}

const always = () => true

/** Scopes a table to organizations; `chronology` orders its lists. */
export const organizationTable = <K, V extends OrganizationRow>(
  table: MemoryTable<K, V>,
  chronology: Chronology<V>
): OrganizationTable<K, V> => {
  const own = (organizationId: OrganizationId, key: K) => ownedBy(organizationId, table.get(key))
  const ownRows = (organizationId: OrganizationId, keep: (row: V) => boolean = always) =>
    table.values().filter((row) => row.organization_id === organizationId && keep(row))
  return {
    ...table,
    own,
    findOwn: (organizationId, key) => Option.fromNullable(own(organizationId, key)),
    ownRows,
    newestPage: (organizationId, page, keep) =>
      Page.slice(newestFirst(ownRows(organizationId, keep), chronology.at, chronology.id), page),
    replaceOwn: (organizationId, key, change, onlyIf = always) => {
      const current = own(organizationId, key)
      return current === undefined || !onlyIf(current) ? Option.none() : table.replace(key, change)
    },
    removeOwn: (organizationId, key) => {
      const current = own(organizationId, key)
      if (current === undefined) return Option.none()
      table.delete(key)
      return Option.some(current)
    }
  }
}
