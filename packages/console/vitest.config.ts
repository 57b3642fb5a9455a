import { defineProject } from "vitest/config"
import { workspaceBuild, workspacePackages } from "../../vitest.packages.js"

const packages = workspacePackages("console")

export default defineProject({
  resolve: packages.resolve,
  ssr: packages.ssr,
  plugins: packages.plugins,
  test: {
    name: "console",
    server: packages.server,
    env: packages.env,
    globalSetup: [workspaceBuild],
    include: ["test/**/*.test.ts"],
    // property tests take seconds when the suite runs several files at once: the bound catches a hang
    testTimeout: 30_000,
    hookTimeout: 60_000
  }
})
