import { CallingClock } from "@voice-agent-platform/core/testing"
import { execFile } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { describe, expect, it } from "vitest"
import { startExample } from "@voice-agent-platform/example-testing/ExampleProcess.js"

/** The machine's clock when the test began: the bundled server's clock starts at 11:00 UTC that day. */
const began = new Date()

const example = fileURLToPath(new URL("../src/main.ts", import.meta.url))
const runExample = (env: Record<string, string>) =>
  promisify(execFile)(
    process.execPath,
    ["--conditions=@voice-agent-platform/source", "--import", "tsx", example],
    {
      env: { ...process.env, ...env },
      timeout: 90_000,
      killSignal: "SIGKILL"
    }
  )

describe("the typed client example", () => {
  it("places a call on the bundled server and prints its transcript; outside calling hours, when to call again", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "vap-example-client-"))
    const apiKey = `vap_${"T".repeat(40)}`
    const server = await startExample(
      new URL("..", import.meta.url),
      {
        DATA_DIR: dataDir,
        BOOTSTRAP_API_KEY: apiKey,
        SIM_CALL_SECONDS: "1",
        HOST: "127.0.0.1",
        // at 11:00 UTC today, whatever the hour: one number inside calling hours, one outside
        ...CallingClock.env(began)
      },
      "../../packages/http/src/server/main.ts"
    )
    try {
      const env = { VAP_BASE_URL: server.url, VAP_API_KEY: apiKey }
      const { stdout } = await runExample({ ...env, PHONE_NUMBER: CallingClock.inside })
      expect(stdout).toMatch(/^placed call \d+ to \+\d+$/m)
      expect(stdout).toContain("the call ended completed")
      expect(stdout).toContain("assistant: Hello, this is the typed client example.")
      const refused = await runExample({ ...env, PHONE_NUMBER: CallingClock.outside })
      expect(refused.stdout).toContain(
        `outside calling hours: call again at ${CallingClock.outsideOpensAt(began).toISOString()}`
      )
    } finally {
      await server.stop()
      rmSync(dataDir, { recursive: true, force: true })
    }
  }, 120_000)
})
