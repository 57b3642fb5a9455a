import { defineProject } from "vitest/config"
import { workspaceBuild, workspacePackages } from "../../vitest.packages.js"

const packages = workspacePackages()

export default defineProject({
  resolve: packages.resolve,
  ssr: packages.ssr,
  plugins: packages.plugins,
  test: {
    name: "example-fastify",
    server: packages.server,
    env: packages.env,
    globalSetup: [workspaceBuild],
    include: ["test/**/*.test.ts"],
    testTimeout: 90_000,
    hookTimeout: 90_000
  }
})
