import { defineProject } from "vitest/config"
import { workspaceProject } from "../../vitest.packages.js"

export default defineProject(
  workspaceProject(undefined, {
    name: "example-fastify",
    include: ["test/**/*.test.ts"],
    testTimeout: 90_000,
    hookTimeout: 90_000
  })
)
