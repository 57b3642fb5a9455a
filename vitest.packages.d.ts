// Types of vitest.packages.js (a JavaScript file so that every project's config can import it from
// outside its own TypeScript project).
import type { Plugin } from "vite"

/** Whether this run loads every package from source (watch mode, or VAP_TEST_SOURCES=1). */
export declare const fromSource: boolean

/** A project's resolution of the workspace's packages: `own` is the package the project tests. */
export declare const workspacePackages: (own?: string) => {
  readonly resolve: { conditions: Array<string> }
  readonly ssr: { resolve: { conditions: Array<string> } }
  readonly plugins: Array<Plugin>
  readonly server: { deps?: { external?: Array<RegExp> } }
  readonly env: { VAP_TEST_PACKAGES: "compiled" | "source" }
}

/** This module's path, as a project's first `globalSetup`. */
export declare const workspaceBuild: string

/** `npm start`'s build when a source changed since the last one. */
export declare const setup: () => Promise<void>
