import { execFile } from "node:child_process"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { describe, expect, it } from "vitest"

/**
 * An International Freephone number (+800): it has no local time, so calling hours never refuse it and the
 * example places its call at any hour the test runs. Calling hours themselves: the typed client example's
 * test, and core's.
 */
const callable = "+80012345678"

const script = fileURLToPath(new URL("../src/main.ts", import.meta.url))

describe("the core script example", () => {
  it("places a call with the core services alone and prints its transcript", async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ["--conditions=@voice-agent-platform/source", "--import", "tsx", script],
      {
        env: { ...process.env, PHONE_NUMBER: callable, SIM_CALL_SECONDS: "0.5" },
        timeout: 60_000,
        killSignal: "SIGKILL"
      }
    )
    expect(stdout).toMatch(/^placed call \d+ to \+\d+$/m)
    expect(stdout).toMatch(/^the call ended completed after [0-9.]+ s$/m)
    expect(stdout).toContain("assistant: Hello Ola, this is a script.")
    expect(stdout).toContain("1 run(s) stored")
  }, 90_000)
})
