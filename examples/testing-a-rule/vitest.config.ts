import { defineProject } from "vitest/config"
import { workspaceBuild, workspacePackages } from "../../vitest.packages.js"

const packages = workspacePackages()

export default defineProject({
  resolve: packages.resolve,
  ssr: packages.ssr,
  plugins: packages.plugins,
  test: {
    name: "example-testing-a-rule",
    server: packages.server,
    env: packages.env,
    globalSetup: [workspaceBuild],
    include: ["test/**/*.test.ts"],
    // the suite runs several files at once: the bound catches a hang, not a slow machine
    testTimeout: 30_000
  }
})
