import { execFile } from "node:child_process"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { describe, expect, it } from "vitest"

/**
 * An International Freephone number (+800): it has no local time, so calling hours never refuse it and the
 * example places its calls at any hour the test runs. main.ts's refused call is this number with its last
 * four digits 0000 (the runtime refuses those): this one must not end in 0000 itself.
 */
const callable = "+80012345678"

const script = fileURLToPath(new URL("../src/main.ts", import.meta.url))

describe("the custom telephony example", () => {
  it("runs calls on its own voice runtime, refusing some, and reads the transcript", async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ["--conditions=@voice-agent-platform/source", "--import", "tsx", script],
      { env: { ...process.env, PHONE_NUMBER: callable }, timeout: 60_000, killSignal: "SIGKILL" }
    )
    expect(stdout).toMatch(/^refused: telephony_unavailable: .*refuses numbers ending in 0000/m)
    expect(stdout).toContain('the call ended completed, gathered {"heard":true}')
    expect(stdout).toContain("assistant: Hello from the engine.")
    expect(stdout).toContain("user: Echo runtime here, loud and clear.")
  }, 90_000)
})
