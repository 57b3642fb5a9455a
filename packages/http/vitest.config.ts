import { defineProject } from "vitest/config"

export default defineProject({
  test: {
    name: "http",
    include: ["test/**/*.test.ts"],
    // tests over a real database or real server processes take seconds, not milliseconds
    testTimeout: 30_000,
    hookTimeout: 120_000
  }
})
