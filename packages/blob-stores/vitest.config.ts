import { defineProject } from "vitest/config"
import { workspaceBuild, workspacePackages } from "../../vitest.packages.js"

const packages = workspacePackages("blob-stores")

export default defineProject({
  resolve: packages.resolve,
  ssr: packages.ssr,
  plugins: packages.plugins,
  test: {
    name: "blob-stores",
    server: packages.server,
    env: packages.env,
    globalSetup: [workspaceBuild],
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000
  }
})
