import { defaultClientConditions, defaultServerConditions } from "vite"
import { configDefaults, defineProject } from "vitest/config"

// The workspace's packages export their TypeScript sources under this condition (and their build otherwise).
const source = "@voice-agent-platform/source"

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

export default defineProject({
  resolve: { conditions: [source, ...defaultClientConditions] },
  ssr: { resolve: { conditions: [source, ...defaultServerConditions] } },
  test: {
    name: "http",
    include: ["test/**/*.test.ts"],
    exclude: [...configDefaults.exclude, ...(process.env["VAP_ONCE_SUITES"] === "skip" ? onceSuites : [])],
    // the console's pages and assets are served from its build, and a server's new data directory is a
    // copy of the embedded database's template: both made first when out of date
    globalSetup: ["test/support/BuildConsole.ts", "test/support/EmbeddedTemplateSetup.ts"],
    // tests over a real database or real server processes take seconds, not milliseconds; a file's first
    // test on the embedded database also compiles PGlite and migrates its snapshot (6–7 s on a quiet
    // two-core machine), which the whole suite's load (a file more than there are processors) stretched
    // past 30 s in CI
    testTimeout: 60_000,
    hookTimeout: 120_000
  }
})
