import { defineProject } from "vitest/config"
import { workspaceProject } from "../../vitest.packages.js"

export default defineProject(
  workspaceProject(undefined, {
    name: "example-testing-a-rule",
    include: ["test/**/*.test.ts"],
    // the suite runs several files at once: the bound catches a hang, not a slow machine
    testTimeout: 30_000
  })
)
