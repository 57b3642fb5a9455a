import { defineProject } from "vitest/config"
import { workspaceProject } from "../../vitest.packages.js"

export default defineProject(
  workspaceProject("voice", {
    name: "voice",
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000
  })
)
