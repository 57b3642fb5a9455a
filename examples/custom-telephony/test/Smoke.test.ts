import { CallingHours, TimeZoneCandidates } from "@voice-agent-platform/core"
import { execFile } from "node:child_process"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { describe, expect, it } from "vitest"

const numbers = [
  "+81312345678",
  "+919812345678",
  "+48500100200",
  "+551130041234",
  "+12125551234",
  "+12135551234"
]
const allowed = (number: string, at: Date) =>
  CallingHours.isAllowedAt(TimeZoneCandidates.forNumber(number), at)
// main.ts's refused call is PHONE_NUMBER with its last four digits 0000: the callable number must not
// end in 0000 itself, or the runtime refuses both calls
const callable = numbers.find(
  (n) => !n.endsWith("0000") && allowed(n, new Date()) && allowed(n, new Date(Date.now() + 20 * 60_000))
)!

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
