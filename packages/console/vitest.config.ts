import { defaultClientConditions, defaultServerConditions } from "vite"
import { defineProject } from "vitest/config"

// The workspace's packages export their TypeScript sources under this condition (and their build otherwise).
const source = "@voice-agent-platform/source"

export default defineProject({
  resolve: { conditions: [source, ...defaultClientConditions] },
  ssr: { resolve: { conditions: [source, ...defaultServerConditions] } },
  test: {
    name: "console",
    include: ["test/**/*.test.ts"],
    // property tests take seconds when the suite runs several files at once: the bound catches a hang
    testTimeout: 30_000,
    hookTimeout: 60_000
  }
})
