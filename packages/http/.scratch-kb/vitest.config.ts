import { defineConfig } from "vitest/config"
export default defineConfig({
  test: { projects: [{ test: { name: "scratch", root: __dirname, include: ["*.test.ts"] } }] }
})
