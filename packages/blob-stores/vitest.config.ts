import { defineProject } from "vitest/config"
import { workspaceProject } from "../../vitest.packages.js"

export default defineProject(
  workspaceProject("blob-stores", {
    name: "blob-stores",
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000
  })
)
