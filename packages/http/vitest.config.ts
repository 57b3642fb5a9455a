import { configDefaults, defineProject } from "vitest/config"
import { workspaceProject } from "../../vitest.packages.js"

/**
 * Suites that do not depend on Node's version: a browser's view of the console and the docs (chromium
 * does the work), and several servers over one PostgreSQL killed and restarted (the database's locking
 * does). `.ci/run` runs them on one Node version only: `VAP_ONCE_SUITES=skip` leaves them out of the
 * other run (docs/decisions.md, "What CI runs where"). `npm test` runs them.
 */
export const onceSuites = [
  "test/**/*InBrowser.test.ts",
  "test/server/Crash.test.ts",
  "test/conversations/AnalysisCrash.test.ts",
  "test/server/SharedDatabase.test.ts",
  "test/campaigns/CampaignCrash.test.ts",
  "test/campaigns/VoiceCampaignCrash.test.ts"
]

export default defineProject(
  workspaceProject("http", {
    name: "http",
    include: ["test/**/*.test.ts"],
    exclude: [...configDefaults.exclude, ...(process.env["VAP_ONCE_SUITES"] === "skip" ? onceSuites : [])],
    // after the workspace's build (the siblings' dist, the console's pages and assets, the embedded
    // database's template; workspaceProject puts it first): the migrated snapshot in-memory test databases
    // open from
    globalSetup: ["test/support/EmbeddedTemplateSetup.ts"],
    // tests over a real database or real server processes take seconds, not milliseconds; a file's first
    // test on the embedded database also compiles PGlite and migrates its snapshot (6–7 s on a quiet
    // two-core machine), which the whole suite's load (a file more than there are processors) stretched
    // past 30 s in CI
    testTimeout: 60_000,
    hookTimeout: 120_000
  })
)
