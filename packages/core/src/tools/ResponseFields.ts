/**
 * What of a tool's JSON answer goes back to the model: `response_fields` are dotted paths into it, array
 * items by index (`items.0.name`); none means the whole body.
 */

/** The value at a dotted path, own properties only (no prototype reach), or undefined. */
export const at = (value: unknown, path: string): unknown => {
  let current: unknown = value
  for (const key of path.split(".")) {
    if (Array.isArray(current)) {
      if (!/^(0|[1-9][0-9]*)$/.test(key)) return undefined
      current = current[Number(key)]
    } else if (typeof current === "object" && current !== null && Object.hasOwn(current, key)) {
      current = (current as Record<string, unknown>)[key]
    } else {
      return undefined
    }
  }
  return current
}

/**
 * The picked fields as `{path: value}` (a path that reads nothing is null), or the whole body when no
 * field is named.
 */
export const pick = (body: unknown, fields: ReadonlyArray<string> | null | undefined): unknown => {
  if (fields === null || fields === undefined || fields.length === 0) return body
  return Object.fromEntries(fields.map((path) => [path, at(body, path) ?? null]))
}
