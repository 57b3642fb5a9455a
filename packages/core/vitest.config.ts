import { defineProject } from "vitest/config"
import { workspacePackages } from "../../vitest.packages.js"

const packages = workspacePackages("core")

export default defineProject({
  resolve: packages.resolve,
  ssr: packages.ssr,
  plugins: packages.plugins,
  test: {
    name: "core",
    server: packages.server,
    env: packages.env,
    include: ["test/**/*.test.ts"],
    // property tests take seconds when the suite runs several files at once: the bound catches a hang
    testTimeout: 30_000,
    hookTimeout: 60_000
  }
})
