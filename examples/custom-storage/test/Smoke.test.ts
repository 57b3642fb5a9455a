import { execFile } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { describe, expect, it } from "vitest"

const script = fileURLToPath(new URL("../src/main.ts", import.meta.url))

describe("the custom storage example", () => {
  it("runs the engine with the Do not call list in a file and refuses a call to a listed number", async () => {
    const directory = mkdtempSync(join(tmpdir(), "vap-example-storage-"))
    try {
      const file = join(directory, "dnc.json")
      const { stdout } = await promisify(execFile)(
        process.execPath,
        ["--conditions=@voice-agent-platform/source", "--import", "tsx", script],
        { env: { ...process.env, DNC_FILE: file }, timeout: 60_000, killSignal: "SIGKILL" }
      )
      expect(stdout).toContain("do not call +48500100200 (asked not to be called)")
      expect(stdout).toMatch(/^placing a call to it: do_not_call/m)
      expect(existsSync(file)).toBe(true)
      expect(JSON.parse(readFileSync(file, "utf8"))).toMatchObject([{ phone_number: "+48500100200" }])
    } finally {
      rmSync(directory, { recursive: true, force: true })
    }
  }, 90_000)
})
