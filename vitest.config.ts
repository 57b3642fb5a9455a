import { availableParallelism } from "node:os"
import { defineConfig } from "vitest/config"
import projects from "./vitest.workspace.js"

/**
 * Test files run at once. Vitest's default is one less than the processors (one file at a time on a
 * two-core machine), but most files wait on servers, databases and a browser rather than compute, so
 * the suite runs a file more than there are processors. `VITEST_MAX_WORKERS` overrides it.
 */
const workers = Number(process.env["VITEST_MAX_WORKERS"] ?? availableParallelism() + 1)

export default defineConfig({
  test: {
    // Every package and example with tests is one vitest project (vitest.workspace.ts lists them).
    projects,
    maxWorkers: workers,
    minWorkers: 1
  }
})
