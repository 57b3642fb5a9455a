/** Where the console is served. */
export const consolePath = "/console"

/** Where its hashed assets are served. */
export const assetsPath = `${consolePath}/assets/`

/**
 * How the console's page reaches `/console/` from the page's own address, as a relative prefix: `console/`
 * for `/console`, nothing for `/console/` and `/console/agents`, `../` for `/console/agents/agent_x`, and so
 * on. Relative addresses keep working when an embedder serves everything under a prefix of its own.
 */
export const relativeBase = (path: string): string => {
  const rest = path.slice(consolePath.length)
  if (rest === "") return "console/"
  const depth = rest.split("/").length - 2
  return "../".repeat(Math.max(0, depth))
}

/** The built index.html with its `assets/…` addresses made relative to the page at `path`. */
export const pageFor = (index: string, path: string): string => {
  const base = relativeBase(path)
  return base === "" ? index : index.replace(/(src|href)="assets\//g, `$1="${base}assets/`)
}
