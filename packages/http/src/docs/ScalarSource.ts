import { Effect } from "effect"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { pathToFileURL } from "node:url"

/**
 * The Scalar reference's browser script (3.4 MB, shipped by @effect/platform), read from its own file on the
 * first request of the docs page instead of being imported at start: the bundled server (`npm start`) no
 * longer compiles it at every launch, and a server nobody asks for its docs never loads it. Works with no
 * internet access, as the inlined script did.
 */
const scalarModule = (): string =>
  pathToFileURL(
    join(
      dirname(createRequire(import.meta.url).resolve("@effect/platform/package.json")),
      "dist",
      "esm",
      "internal",
      "httpApiScalar.js"
    )
  ).href

/** The script's text, loaded once (later calls answer the same loaded text). */
export const javascript: Effect.Effect<string> = Effect.cached(
  Effect.promise(async () => {
    const loaded: { readonly javascript: string } = await import(/* @vite-ignore */ scalarModule())
    return loaded.javascript
  })
).pipe(Effect.runSync)
