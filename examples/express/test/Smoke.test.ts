import { describe, it } from "vitest"
import { startExample } from "@voice-agent-platform/example-testing/ExampleProcess.js"
import { adminToken, checkHost } from "@voice-agent-platform/example-testing/HostChecks.js"

describe("the Express example", () => {
  it("serves its own routes and body parser next to the API under /voice", async () => {
    const example = await startExample(new URL("..", import.meta.url), { ADMIN_TOKEN: adminToken })
    try {
      await checkHost(example.url)
    } finally {
      await example.stop()
    }
  }, 90_000)
})
