import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    // Every package and example with tests is one vitest project (each has its own vitest.config.ts).
    projects: ["packages/*", "examples/*"]
  }
})
