/** Changes to a query: a value sets the parameter, undefined or `""` removes it. */
export type QueryPatch = Readonly<Record<string, string | number | undefined>>

/**
 * The query string after a change, its parameters in a stable order (sorted), so one view has one
 * address. A change to anything but `page` sends the list back to its first page (the filters changed).
 */
export const patchQuery = (query: URLSearchParams, patch: QueryPatch): string => {
  const next = new URLSearchParams(query)
  const filtersChanged = Object.keys(patch).some((name) => name !== "page")
  if (filtersChanged && !("page" in patch)) next.delete("page")
  for (const [name, value] of Object.entries(patch)) {
    if (value === undefined || value === "") next.delete(name)
    else next.set(name, String(value))
  }
  // the first page is the default: no `page=1` in addresses
  if (next.get("page") === "1") next.delete("page")
  next.sort()
  const text = next.toString()
  return text === "" ? "" : `?${text}`
}

/** The page a query asks for: a whole number from 1, else 1. */
export const pageOf = (query: URLSearchParams): number => {
  const text = query.get("page") ?? ""
  const page = /^\d{1,9}$/.test(text) ? Number(text) : 1
  return page >= 1 ? page : 1
}

/** A query parameter when it is one of the allowed values, else undefined (a hand-edited address is ignored). */
export const oneOf = <const T extends string>(
  query: URLSearchParams,
  name: string,
  allowed: ReadonlyArray<T>
): T | undefined => {
  const value = query.get(name)
  return value !== null && (allowed as ReadonlyArray<string>).includes(value) ? (value as T) : undefined
}
