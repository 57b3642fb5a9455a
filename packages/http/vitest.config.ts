import { defaultClientConditions, defaultServerConditions } from "vite"
import { defineProject } from "vitest/config"

// The workspace's packages export their TypeScript sources under this condition (and their build otherwise).
const source = "@voice-agent-platform/source"

export default defineProject({
  resolve: { conditions: [source, ...defaultClientConditions] },
  ssr: { resolve: { conditions: [source, ...defaultServerConditions] } },
  test: {
    name: "http",
    include: ["test/**/*.test.ts"],
    // the console's pages and assets are served from its build: made first when out of date
    globalSetup: ["test/support/BuildConsole.ts"],
    // tests over a real database or real server processes take seconds, not milliseconds
    testTimeout: 30_000,
    hookTimeout: 120_000
  }
})
