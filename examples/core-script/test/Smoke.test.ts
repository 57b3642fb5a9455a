import { CallingHours, TimeZoneCandidates } from "@voice-agent-platform/core"
import { execFile } from "node:child_process"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { describe, expect, it } from "vitest"

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
