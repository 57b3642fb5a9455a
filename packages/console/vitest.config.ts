import { defineProject } from "vitest/config"
import { workspaceProject } from "../../vitest.packages.js"

export default defineProject(
  workspaceProject("console", {
    name: "console",
    include: ["test/**/*.test.ts"],
    // property tests take seconds when the suite runs several files at once: the bound catches a hang
    testTimeout: 30_000,
    hookTimeout: 60_000
  })
)
