import { afterAll, describe, expect, it } from "@effect/vitest"
import { execFile } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { ConfigProvider } from "effect"
import * as Cli from "../../src/cli/Cli.js"
import { call, start, stop } from "../support/ServerProcesses.js"

const main = fileURLToPath(new URL("../../src/cli/main.ts", import.meta.url))
const dataDir = mkdtempSync(join(tmpdir(), "vap-cli-"))
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

/** Runs `vap` as a process on the test's data directory; answers its exit code and output (killed after 60 s). */
const vapProcess = (...args: Array<string>) =>
  new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      ["--conditions=@voice-agent-platform/source", "--import", "tsx", main, ...args],
      { env: { ...process.env, DATA_DIR: dataDir }, timeout: 60_000, killSignal: "SIGKILL" },
      (error, stdout, stderr) =>
        resolve({ code: error === null ? 0 : (error.code as number | null), stdout, stderr })
    )
  })

/**
 * Runs `vap` in this process (`Cli.run`, what the process's `main` runs) on the test's data directory: the
 * same command, output and exit code without a new process's start (a few seconds each on a busy machine).
 */
const vap = async (...args: Array<string>) => {
  let stdout = ""
  let stderr = ""
  const code = await Cli.run(
    args,
    { stdout: (text) => void (stdout += text), stderr: (text) => void (stderr += text) },
    ConfigProvider.fromMap(new Map([["DATA_DIR", dataDir]]))
  )
  return { code, stdout, stderr }
}

describe("vap, the operator's tool", () => {
  it("manages organizations, keys, balances, numbers and usage on the data directory, with --json", async () => {
    // a new data directory is either created by initdb and migrated here, or copied from the build's
    // template, which already holds every version (when `npm run build` has made it)
    expect((await vapProcess("migrate")).stdout).toMatch(/^applied 1 initial$|^The schema is up to date/m)
    expect(JSON.parse((await vap("migrate", "--json")).stdout)).toEqual({ applied: [] })

    const created = JSON.parse(
      (await vap("org", "create", "--name", "Acme", "--channels", "2", "--json")).stdout
    )
    expect(created).toMatchObject({ name: "Acme", outbound_channels: 2, balance_pln: 0 })
    expect(created.api_key).toMatch(/^vap_[0-9A-Za-z]{40}$/)
    const id = String(created.organization_id)

    const set = await vap("org", "set", id, "--channels", "5", "--retention-days", "30", "--json")
    expect(JSON.parse(set.stdout)).toMatchObject({ outbound_channels: 5, recording_retention_days: 30 })
    const listed = JSON.parse((await vap("org", "list", "--json")).stdout)
    expect(listed.organizations).toEqual([
      expect.objectContaining({ organization_id: created.organization_id })
    ])

    const key = JSON.parse((await vap("keys", "create", id, "--json")).stdout)
    const keys = JSON.parse((await vap("keys", "list", id, "--json")).stdout).keys
    expect(keys.map((k: { api_key_id: number }) => k.api_key_id).sort()).toEqual(
      [created.api_key_id, key.api_key_id].sort()
    )
    expect((await vap("keys", "revoke", String(created.api_key_id))).stdout).toContain("Revoked API key")
    const afterRevoke = JSON.parse((await vap("keys", "list", id, "--json")).stdout).keys
    expect(
      afterRevoke.find((k: { api_key_id: number }) => k.api_key_id === created.api_key_id).revoked_at
    ).not.toBeNull()

    expect(
      JSON.parse((await vap("balance", "top-up", id, "--amount", "12.50", "--json")).stdout)
    ).toMatchObject({
      balance_pln: 12.5
    })
    expect((await vap("numbers", "add", "+48 22 123 45 67", "--type", "landline")).stdout).toMatch(
      /^Added \+48221234567 \(landline\) to the inventory/
    )
    expect(JSON.parse((await vap("usage", id, "--json")).stdout)).toMatchObject({ calls: 0, cost_pln: 0 })

    // the bundled server over the same directory sees what vap did: the new key works, the revoked one not
    const server = await start({ DATA_DIR: dataDir })
    try {
      expect((await call(server.port, "GET", "/api/v1/agents", { "x-api-key": key.api_key })).status).toBe(
        200
      )
      expect(
        (await call(server.port, "GET", "/api/v1/agents", { "x-api-key": created.api_key })).status
      ).toBe(401)
      // while the server holds the embedded database, vap says so and fails
      const busy = await vap("org", "list")
      expect(busy.code).toBe(1)
      expect(busy.stderr).toMatch(/in use by process \d+\. Stop that server first/)
    } finally {
      await stop(server)
    }
  }, 300_000)

  it("fails with a clear message and a non-zero exit code", async () => {
    // as a process: the exit code and standard error a shell sees
    const missing = await vapProcess("keys", "list", "123456")
    expect(missing).toMatchObject({ code: 1, stderr: "vap: Organization 123456 not found\n" })
    expect(await vap("keys", "revoke", "999999", "--json")).toMatchObject({
      code: 1,
      stderr: `${JSON.stringify({ error: "API key 999999 not found" })}\n`
    })
    const usage = await vapProcess("org", "create")
    expect(usage.code).toBe(2)
    expect(usage.stderr).toMatch(/^vap: --name is required\n\nUsage: vap org create/)
    const help = await vap("keys", "--help")
    expect(help).toMatchObject({ code: 0 })
    expect(help.stdout).toContain("vap keys revoke <api_key_id>")
  }, 120_000)
})
