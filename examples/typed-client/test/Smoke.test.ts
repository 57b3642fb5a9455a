import { CallingHours, TimeZoneCandidates } from "@voice-agent-platform/core"
import { execFile } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { describe, expect, it } from "vitest"
import { startExample } from "@voice-agent-platform/example-testing/ExampleProcess.js"

/** A number inside calling hours now and for the next 20 minutes, and one outside them now. */
const numbers = [
  "+81312345678",
  "+919812345678",
  "+48500100200",
  "+551130000000",
  "+12125551234",
  "+12135551234"
]
const allowed = (number: string, at: Date) =>
  CallingHours.isAllowedAt(TimeZoneCandidates.forNumber(number), at)
const callable = numbers.find(
  (n) => allowed(n, new Date()) && allowed(n, new Date(Date.now() + 20 * 60_000))
)!
const uncallable = numbers.find((n) => !allowed(n, new Date()))!

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
      { DATA_DIR: dataDir, BOOTSTRAP_API_KEY: apiKey, SIM_CALL_SECONDS: "1", HOST: "127.0.0.1" },
      "../../packages/http/src/server/main.ts"
    )
    try {
      const env = { VAP_BASE_URL: server.url, VAP_API_KEY: apiKey }
      const { stdout } = await runExample({ ...env, PHONE_NUMBER: callable })
      expect(stdout).toMatch(/^placed call \d+ to \+\d+$/m)
      expect(stdout).toContain("the call ended completed")
      expect(stdout).toContain("assistant: Hello, this is the typed client example.")
      const refused = await runExample({ ...env, PHONE_NUMBER: uncallable })
      expect(refused.stdout).toMatch(/^outside calling hours: call again at \d{4}-\d\d-\d\dT/m)
    } finally {
      await server.stop()
      rmSync(dataDir, { recursive: true, force: true })
    }
  }, 120_000)
})
