/**
 * The names a model calls an agent's tools by: each tool's name lowercased, every character outside
 * `[a-z0-9_]` replaced by `_`, cut at 64 characters; a name taken by an earlier tool gets `_2`, `_3`, …
 * (the name cut so that the suffix fits). A name left empty is `tool`.
 */

/** The longest function name providers accept. */
export const maxLength = 64

/** A tool's name as a function name, before clashes are resolved. */
export const base = (toolName: string): string => {
  const name = toolName
    .toLowerCase()
    .replace(/[^a-z0-9_]/g, "_")
    .slice(0, maxLength)
  return name === "" ? "tool" : name
}

/** The function names of tools, in order: distinct, each at most `maxLength` characters. */
export const assign = (toolNames: ReadonlyArray<string>): ReadonlyArray<string> => {
  const taken = new Set<string>()
  return toolNames.map((toolName) => {
    const wanted = base(toolName)
    let name = wanted
    for (let n = 2; taken.has(name); n++) {
      const suffix = `_${n}`
      name = wanted.slice(0, maxLength - suffix.length) + suffix
    }
    taken.add(name)
    return name
  })
}
