import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { CallingClock } from "@voice-agent-platform/core/testing"
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { callableNumber, placeCall } from "./support/ConsoleCalls.js"
import { apiOf } from "./support/ConsoleFixtures.js"
import {
  chromium,
  inspect,
  open,
  press,
  signIn,
  waitForHeading,
  waitForText,
  withPage
} from "./support/ConsoleBrowser.js"

const apiKey = `vap_${"U".repeat(40)}`

describe.skipIf(chromium === undefined)("the console in a browser: overview and usage", () => {
  let context: Awaited<ReturnType<typeof open>>
  let api: ReturnType<typeof apiOf>
  let run: { readonly workflow_run_id: number; readonly ended_at: string }
  const downloads = mkdtempSync(join(tmpdir(), "vap-downloads-"))
  beforeAll(async () => {
    context = await open(apiKey, { SIM_CALL_SECONDS: "2", ...CallingClock.env() })
    api = apiOf(context.server.port, apiKey)
    const agent = await api.agent("Usage agent")
    run = await placeCall(context.server.port, apiKey, agent.public_id, callableNumber)
  }, 120_000)
  afterAll(async () => {
    await context?.close()
    rmSync(downloads, { recursive: true, force: true })
  }, 60_000)

  it("shows the channels busy now and the newest runs of every agent, each linked to its page", () =>
    withPage(context.browser, "overview-runs", async (page) => {
      await api.agent("Quiet agent")
      const organization = await api.get("/api/v1/organization")
      await signIn(page, context.url, apiKey)
      await waitForText(page, new RegExp(`Busy now\\s+0 of ${organization.outbound_channels}`))
      await waitForText(page, /The newest runs of every agent/)
      expect(await inspect(page, "overview-runs")).toEqual([])
      await press(page, `Run ${run.workflow_run_id}`, "link")
      expect(await waitForHeading(page, /^Run \d+$/)).toBe(`Run ${run.workflow_run_id}`)
    }))

  it("draws calls and cost by day, lists them as a table, and downloads the report as CSV", () =>
    withPage(context.browser, "usage", async (page) => {
      // the day the call was billed (its end), in UTC: the screen shows its month by default
      const today = run.ended_at.slice(0, 10)
      const month = today.slice(0, 7)
      expect(month).toBe(new Date().toISOString().slice(0, 7))
      const report = await api.get(
        `/api/v1/reports/usage?from=${month}-01T00:00:00Z&to=${nextMonth(month)}-01T00:00:00Z`
      )
      expect(report.totals.calls).toBe(1)

      await signIn(page, context.url, apiKey, "usage")
      expect(await waitForHeading(page, /^Usage$/)).toBe("Usage")
      await waitForText(page, /Usage by day/)
      const text = await page.evaluate(() => (globalThis as any).document.body.innerText as string)
      expect(text).toMatch(/Calls\s+1\b/)
      // the chart: a bar per day of the month in each panel, one of them drawn for today's call
      const days = new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5)), 0)).getUTCDate()
      const bars = await page.$$eval(".chart-bar-calls", (rects) =>
        rects.map((rect) => Number(rect.getAttribute("height")))
      )
      expect(bars).toHaveLength(days)
      expect(bars.filter((height) => height > 0)).toHaveLength(1)
      expect(bars[Number(today.slice(8)) - 1]).toBeGreaterThan(0)
      expect(await page.$$(".chart-bar-cost")).toHaveLength(days)
      // the table says every figure
      const cells = await page.$$eval("table tbody tr td", (tds) =>
        tds.map((td) => (td.textContent ?? "").trim())
      )
      expect(cells.slice(0, 2)).toEqual([today, "1"])
      expect(await inspect(page, "usage")).toEqual([])

      // the report as a file, fetched with the key and saved from memory
      const browserSession = await context.browser.target().createCDPSession()
      await browserSession.send("Browser.setDownloadBehavior", {
        behavior: "allow",
        downloadPath: downloads,
        browserContextId: page.browserContext().id!
      })
      await press(page, "Download the report (CSV)")
      const file = join(downloads, `usage-${month}.csv`)
      for (let i = 0; i < 100 && !existsSync(file); i++)
        await new Promise((resolve) => setTimeout(resolve, 100))
      const lines = readFileSync(file, "utf8").trim().split("\r\n")
      expect(lines[0]).toBe("day,calls,duration_seconds,cost,currency")
      expect(lines[1]).toMatch(new RegExp(`^${today},1,2,\\d+\\.\\d{2},PLN$`))
      expect(lines.at(-1)).toMatch(/^total,1,2,\d+\.\d{2},PLN$/)

      // another month is in the address
      await press(page, "Previous month", "link")
      await page.waitForFunction(() => (globalThis as any).location.search.startsWith("?month="))
      await waitForText(page, /No usage in/)
    }))
})

const nextMonth = (month: string) => {
  const date = new Date(`${month}-01T00:00:00Z`)
  date.setUTCMonth(date.getUTCMonth() + 1)
  return date.toISOString().slice(0, 7)
}
