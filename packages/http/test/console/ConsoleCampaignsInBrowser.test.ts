import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { CallingClock } from "@voice-agent-platform/core/testing"
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { ElementHandle, Page } from "puppeteer-core"
import { dialableNumbers, numberOutsideCallingHours } from "./support/CallingNumbers.js"
import { apiOf } from "./support/ConsoleFixtures.js"
import {
  chromium,
  fill,
  inspect,
  open,
  press,
  signIn,
  waitForHeading,
  waitForText,
  withPage
} from "./support/ConsoleBrowser.js"

const apiKey = `vap_${"C".repeat(40)}`

/** The figures of a `<dl class="figures">` under `selector`, by their terms. */
const figures = (page: Page, selector: string) =>
  page.$$eval(`${selector} dl > div`, (rows) =>
    Object.fromEntries(
      rows.map((row) => [
        row.querySelector("dt")?.textContent ?? "",
        row.querySelector("dd")?.textContent ?? ""
      ])
    )
  )

/** The campaign's status as the page says it. */
const shownStatus = (page: Page) => page.$eval(".campaign-status strong", (element) => element.textContent)

const waitForStatus = (page: Page, status: string, timeout = 15_000) =>
  page.waitForFunction(
    (wanted) => (globalThis as any).document.querySelector(".campaign-status strong")?.textContent === wanted,
    { timeout },
    status
  )

/** The numbers in the contacts table, in order. */
const contactNumbers = (page: Page) =>
  page.$$eval('section[aria-labelledby="report-heading"] tbody tr td:first-child', (cells) =>
    cells.map((cell) => (cell.textContent ?? "").trim())
  )

describe.skipIf(chromium === undefined)("the console in a browser: campaigns", () => {
  let context: Awaited<ReturnType<typeof open>>
  let api: ReturnType<typeof apiOf>
  let agentId: string
  const files = mkdtempSync(join(tmpdir(), "vap-console-csv-"))
  beforeAll(async () => {
    context = await open(apiKey, { SIM_CALL_SECONDS: "2", ...CallingClock.env() })
    api = apiOf(context.server.port, apiKey)
    agentId = (await api.agent("Campaign caller")).public_id
  }, 120_000)
  afterAll(async () => {
    await context?.close()
    rmSync(files, { recursive: true, force: true })
  }, 60_000)

  /** A campaign made through the API, with these contacts. */
  const campaign = async (name: string, numbers: ReadonlyArray<string>, maxConcurrency = 1) =>
    api.post("/api/v1/campaigns", {
      name,
      agent_id: agentId,
      max_concurrency: maxConcurrency,
      ...(numbers.length === 0 ? {} : { contacts: numbers.map((phone_number) => ({ phone_number })) })
    })

  it(
    "shows the preflight of a CSV file before importing it, then imports only the valid contacts",
    () =>
      withPage(context.browser, "campaign-import", async (page) => {
        const [first, second, listed] = dialableNumbers(3)
        const outside = numberOutsideCallingHours
        await api.post("/api/v1/do-not-call", { phone_number: listed, reason: "asked not to be called" })
        const created = await campaign("Spring check-ups", [])
        const csv = join(files, "contacts.csv")
        writeFileSync(
          csv,
          [
            "phone_number,name",
            `${first},Ada`,
            `${second},Bea`,
            "not a number,Cid",
            `${first},Ada again`,
            `${listed},Dee`,
            `${outside},Eve`
          ].join("\n") + "\n"
        )
        await signIn(page, context.url, apiKey, `campaigns/${created.campaign_id}`)
        expect(await waitForHeading(page, /Spring check-ups/)).toBe("Spring check-ups")
        expect(await shownStatus(page)).toBe("created")
        const input = (await page.$("#contacts-file")) as ElementHandle<any>
        await input.uploadFile(csv)
        await waitForText(page, /Before importing/)
        expect(await figures(page, ".preflight")).toEqual({
          Rows: "6",
          "Invalid numbers": "1",
          Duplicates: "1",
          "On the Do not call list": "1",
          "Outside calling hours now": "1",
          "To be added": "4"
        })
        const invalid = await page.$$eval(".preflight tbody tr", (rows) =>
          rows.map((row) =>
            Array.from(row.querySelectorAll("td"), (cell: any) => (cell.textContent ?? "").trim())
          )
        )
        expect(invalid).toHaveLength(1)
        expect(invalid[0]!.slice(0, 2)).toEqual(["3", "not a number"])
        // nothing is imported before the person imports
        expect((await api.get(`/api/v1/campaigns/${created.campaign_id}`)).counts.total).toBe(0)
        expect(await inspect(page, "campaign-preflight")).toEqual([])

        await press(page, "Import 4 contacts")
        await waitForText(page, /Imported: 4 contacts added, 1 duplicate left out, 1 invalid row skipped\./)
        await page.waitForFunction(
          () =>
            (globalThis as any).document.querySelectorAll(
              'section[aria-labelledby="report-heading"] tbody tr'
            ).length === 4
        )
        expect(await contactNumbers(page)).toEqual([first, second, listed, outside])
        const stored = await api.get(`/api/v1/campaigns/${created.campaign_id}/report?limit=100`)
        expect(stored.items.map((item: { phone_number: string }) => item.phone_number)).toEqual([
          first,
          second,
          listed,
          outside
        ])
        expect(stored.summary.total).toBe(4)
        // the same file again (in a fresh input): every valid row is now a duplicate
        await ((await page.$("#contacts-file")) as ElementHandle<any>).uploadFile(csv)
        await waitForText(page, /Before importing/)
        expect((await figures(page, ".preflight"))["Duplicates"]).toBe("5")
        expect(await page.$eval(".preflight .actions button", (b) => b.textContent)).toBe("Nothing to import")
        // a pending contact is taken out after asking
        await press(page, `Remove ${listed}`)
        await page.waitForSelector("dialog[open]")
        await press(page, "Remove the contact")
        await page.waitForFunction(
          () =>
            (globalThis as any).document.querySelectorAll(
              'section[aria-labelledby="report-heading"] tbody tr'
            ).length === 3
        )
        expect(await contactNumbers(page)).toEqual([first, second, outside])
        expect((await api.get(`/api/v1/campaigns/${created.campaign_id}`)).counts.total).toBe(3)
      }),
    90_000
  )

  it(
    "starts, pauses, resumes and cancels a campaign, the report refreshing by itself while it runs",
    () =>
      withPage(context.browser, "campaign-lifecycle", async (page) => {
        const created = await campaign("Lifecycle", dialableNumbers(10))
        await signIn(page, context.url, apiKey, `campaigns/${created.campaign_id}`)
        await waitForHeading(page, /Lifecycle/)
        expect(await shownStatus(page)).toBe("created")
        await press(page, "Start the campaign")
        await waitForStatus(page, "running")
        await waitForText(page, /refreshed every 3 s/)
        // no reload: the figures move as calls end (2 s each, one at a time)
        await page.waitForFunction(
          () =>
            Array.from((globalThis as any).document.querySelectorAll(".summary-figures > div")).some(
              (row: any) =>
                row.querySelector("dt").textContent === "Completed" &&
                row.querySelector("dd").textContent !== "0"
            ),
          { timeout: 20_000 }
        )
        expect(await inspect(page, "campaign-running")).toEqual([])
        await press(page, "Pause")
        await waitForStatus(page, "paused")
        expect((await api.get(`/api/v1/campaigns/${created.campaign_id}`)).status).toBe("paused")
        await press(page, "Resume")
        await waitForStatus(page, "running")
        await press(page, "Cancel the campaign")
        await page.waitForSelector("dialog[open]")
        const question = await page.$eval("dialog[open]", (dialog) => (dialog as any).innerText as string)
        expect(question).toMatch(/Cancel Lifecycle\?/)
        expect(question).toMatch(/contacts not called yet are skipped/)
        expect(await inspect(page, "campaign-cancel")).toEqual([])
        // "Keep the campaign" closes the question and changes nothing
        await press(page, "Keep the campaign")
        await page.waitForSelector("dialog[open]", { hidden: true })
        expect(await shownStatus(page)).toBe("running")
        await press(page, "Cancel the campaign")
        await press(page, "Yes, cancel it")
        await waitForStatus(page, "canceled")
        const canceled = await api.get(`/api/v1/campaigns/${created.campaign_id}`)
        expect(canceled.status).toBe("canceled")
        expect(canceled.counts.skipped).toBeGreaterThan(0)
        expect(await page.$$eval(".campaign-controls button", (buttons) => buttons.length)).toBe(0)
        // the page stops asking once the campaign ended
        const asked: Array<string> = []
        page.on("request", (request) => {
          if (request.url().includes(`/campaigns/${created.campaign_id}`)) asked.push(request.url())
        })
        await new Promise((resolve) => setTimeout(resolve, 7_000))
        expect(asked).toEqual([])
      }),
    90_000
  )

  it(
    "follows a campaign to its end without a reload, then downloads its report as CSV",
    () =>
      withPage(context.browser, "campaign-report", async (page) => {
        const numbers = dialableNumbers(2)
        const created = await campaign("To the end", numbers, 2)
        await signIn(page, context.url, apiKey, `campaigns/${created.campaign_id}`)
        await waitForHeading(page, /To the end/)
        await press(page, "Start the campaign")
        await waitForStatus(page, "completed", 30_000)
        await waitForText(page, /Completed\s+2/)
        const downloads = mkdtempSync(join(files, "downloads-"))
        const session = await page.createCDPSession()
        await session.send("Browser.setDownloadBehavior", {
          behavior: "allow",
          downloadPath: downloads,
          browserContextId: (page.browserContext() as unknown as { id: string }).id
        })
        await press(page, "Download the report (CSV)")
        const file = join(downloads, `campaign-${created.campaign_id}-report.csv`)
        for (const deadline = Date.now() + 15_000; !existsSync(file) && Date.now() < deadline;)
          await new Promise((resolve) => setTimeout(resolve, 100))
        expect(readdirSync(downloads)).toContain(`campaign-${created.campaign_id}-report.csv`)
        const text = readFileSync(file, "utf8")
        expect(text.split("\n")[0]).toContain("phone_number")
        for (const number of numbers) expect(text).toContain(number)
        // the report's status filter is in the address
        await page.select("#filter-status", "completed")
        await page.waitForFunction(() => (globalThis as any).location.search === "?status=completed")
        await page.waitForFunction(
          () =>
            (globalThis as any).document.querySelectorAll(
              'section[aria-labelledby="report-heading"] tbody tr'
            ).length === 2
        )
        await page.select("#filter-status", "failed")
        await waitForText(page, /No failed contacts\./)
        expect(await inspect(page, "campaign-completed")).toEqual([])
      }),
    90_000
  )

  it(
    "creates a campaign from the form and lists it with its progress",
    () =>
      withPage(context.browser, "campaign-create", async (page) => {
        await signIn(page, context.url, apiKey, "campaigns")
        await waitForHeading(page, /^Campaigns$/)
        await press(page, "Create a campaign", "link")
        await waitForHeading(page, /Create a campaign/)
        await fill(page, "Name", "Made in the form")
        await page.select("#campaign-agent", agentId)
        await fill(page, "Most calls at once (optional)", "0")
        await press(page, "Create the campaign")
        await waitForText(page, /Most calls at once must be a whole number from 1/)
        await fill(page, "Most calls at once (optional)", "2")
        await fill(page, "Attempts per contact", "2")
        await fill(page, "Minutes between attempts", "5")
        await page.locator('::-p-aria([name="Failed"][role="checkbox"])').click()
        expect(await inspect(page, "campaign-new")).toEqual([])
        await press(page, "Create the campaign")
        expect(await waitForHeading(page, /Made in the form/)).toBe("Made in the form")
        await waitForText(page, /Up to 2 attempts, 5 min apart, after busy, no answer/)
        const id = Number(
          /campaigns\/(\d+)$/.exec(await page.evaluate(() => (globalThis as any).location.pathname))?.[1]
        )
        const stored = await api.get(`/api/v1/campaigns/${id}`)
        expect(stored).toMatchObject({
          name: "Made in the form",
          agent_id: agentId,
          max_concurrency: 2,
          retry: { max_attempts: 2, retry_delay_seconds: 300, retry_on: ["busy", "no_answer"] }
        })
        await press(page, "Campaigns", "link")
        await waitForHeading(page, /^Campaigns$/)
        await waitForText(page, /Made in the form/)
        const rows = await page.$$eval("tbody tr", (trs) => trs.map((tr) => (tr as any).innerText as string))
        expect(rows.some((row) => /Spring check-ups/.test(row) && /0 of 3 done/.test(row))).toBe(true)
        expect(rows.some((row) => /To the end/.test(row) && /2 of 2 done \(100%\)/.test(row))).toBe(true)
        expect(await inspect(page, "campaigns")).toEqual([])
      }),
    90_000
  )

  it(
    "shows markup in campaign names, contact files and triggers as text",
    () =>
      withPage(context.browser, "campaign-markup", async (page) => {
        const injected = "<img src=x onerror=alert(1)>"
        await campaign(`Campaign ${injected}`, [])
        await api.post("/api/v1/triggers", { name: `Trigger ${injected}`, agent_id: agentId })
        const csv = join(files, "markup.csv")
        writeFileSync(csv, `phone_number,name\n"${injected}",x\n`)
        await signIn(page, context.url, apiKey, "campaigns")
        await waitForText(page, /Campaign <img src=x onerror=alert\(1\)>/)
        await page.locator(`::-p-aria([name="Campaign ${injected}"][role="link"])`).click()
        expect(await waitForHeading(page, /Campaign <img/)).toBe(`Campaign ${injected}`)
        await ((await page.$("#contacts-file")) as ElementHandle<any>).uploadFile(csv)
        await waitForText(page, /Before importing/)
        expect(
          (await page.$$eval(".preflight tbody td", (cells) => cells.map((c) => c.textContent)))[1]
        ).toBe(injected)
        expect(await page.$$eval("img", (images) => images.length)).toBe(0)
        await page.goto(`${context.url}/triggers`, { waitUntil: "load" })
        await waitForText(page, /Trigger <img src=x onerror=alert\(1\)>/)
        // no element was made from the text, and nothing ran (withPage fails on any dialog or script error)
        expect(await page.$$eval("img", (images) => images.length)).toBe(0)
      }),
    90_000
  )
})
