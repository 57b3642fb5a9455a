import { defineProject } from "vitest/config"

export default defineProject({
  test: {
    name: "example-testing-a-rule",
    include: ["test/**/*.test.ts"]
  }
})
