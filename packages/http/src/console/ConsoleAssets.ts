import { Effect, Option } from "effect"
import { readFile } from "node:fs/promises"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"

/** One built asset: its bytes and content type. */
export interface Asset {
  readonly body: Uint8Array
  readonly contentType: string
}

/** The built console: its page and its assets by name (`main-….js`), only those its manifest lists. */
export interface ConsoleBuild {
  readonly index: string
  readonly assets: ReadonlyMap<string, Asset>
}

interface Manifest {
  readonly files: Readonly<Record<string, { readonly type: string }>>
}

/**
 * Where `@voice-agent-platform/console` keeps its build (dist/console), found the way Node finds the
 * package: from the workspace, from an installed tarball, and from the bundled server (dist/bundle).
 */
export const buildDirectory = (): Option.Option<string> => {
  try {
    const manifest = createRequire(import.meta.url).resolve("@voice-agent-platform/console/package.json")
    return Option.some(join(dirname(manifest), "dist", "console"))
  } catch {
    return Option.none()
  }
}

/** Reads a build: its manifest, page and every asset the manifest names (a few hundred kilobytes at most). */
export const read = (directory: string): Effect.Effect<ConsoleBuild, Error> =>
  Effect.tryPromise({
    try: async () => {
      const manifest = JSON.parse(await readFile(join(directory, "manifest.json"), "utf8")) as Manifest
      const index = await readFile(join(directory, "index.html"), "utf8")
      const assets = new Map<string, Asset>()
      for (const [file, { type }] of Object.entries(manifest.files)) {
        // only files under assets/ with a plain name are served (a manifest names nothing else)
        const name = file.startsWith("assets/") ? file.slice("assets/".length) : ""
        if (!/^[\w.-]+$/.test(name)) continue
        assets.set(name, { body: await readFile(join(directory, file)), contentType: type })
      }
      return { index, assets }
    },
    catch: (cause) =>
      new Error(
        `the console is not built in ${directory} (npm run build builds it): ${cause instanceof Error ? cause.message : String(cause)}`
      )
  })
