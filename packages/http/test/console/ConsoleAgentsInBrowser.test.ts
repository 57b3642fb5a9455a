import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { Page } from "puppeteer-core"
import { apiOf, clinicScript } from "./support/ConsoleFixtures.js"
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

const apiKey = `vap_${"A".repeat(40)}`

/** The address the page is at, relative to the server (`/console/agents?page=2`). */
const address = (page: Page) =>
  page.evaluate(() => (globalThis as any).location.pathname + (globalThis as any).location.search)

/** The texts of the first column of the list's table. */
const firstColumn = (page: Page) =>
  page.$$eval("table tbody tr td:first-child", (cells) =>
    cells.map((cell) => (cell.textContent ?? "").trim())
  )

describe.skipIf(chromium === undefined)("the console in a browser: agents", () => {
  let context: Awaited<ReturnType<typeof open>>
  let api: ReturnType<typeof apiOf>
  beforeAll(async () => {
    context = await open(apiKey)
    api = apiOf(context.server.port, apiKey)
  }, 120_000)
  afterAll(async () => {
    await context?.close()
  }, 60_000)

  it("creates an agent from a pasted script, after showing what the script says", () =>
    withPage(context.browser, "create-agent", async (page) => {
      await signIn(page, context.url, apiKey)
      await press(page, "Agents", "link")
      await waitForHeading(page, /^Agents$/)
      await press(page, "Create an agent from a script", "link")
      await waitForHeading(page, /Create an agent/)
      await fill(page, "Call script", clinicScript)
      await press(page, "Analyse the script")
      await waitForText(page, /What the script says/)
      const preview = await page.$eval(".script-preview", (element) => (element as any).innerText as string)
      expect(preview).toContain("Hi, this is Ada from Smile Clinic. Do you have a minute?")
      expect(preview).toMatch(/Steps[\s\S]*Confirm identity[\s\S]*Propose a date/)
      expect(preview).toMatch(/Data fields[\s\S]*preferred_date|Data fields[\s\S]*preferred date/i)
      expect(preview).toMatch(/Where are you\?[\s\S]*Marszałkowska 1, Warsaw\./)
      expect(await inspect(page, "create-agent")).toEqual([])

      await fill(page, "Agent name", "Ada at Smile Clinic")
      await press(page, "Create the agent")
      expect(await waitForHeading(page, /Ada at Smile Clinic/)).toBe("Ada at Smile Clinic")
      expect(await address(page)).toMatch(/^\/console\/agents\/agent_\w+$/)
      await waitForText(page, /Versions/)
      const text = await page.evaluate(() => (globalThis as any).document.body.innerText as string)
      expect(text).toMatch(/First message\s+Hi, this is Ada from Smile Clinic/)
      expect(text).toContain("There is one version")
      const agents = await api.get("/api/v1/agents?limit=100")
      expect(agents.items.map((agent: { name: string }) => agent.name)).toContain("Ada at Smile Clinic")
    }))

  it("edits the prompt into a new version, compares the versions, and edits the disposition codes", () =>
    withPage(context.browser, "agent-page", async (page) => {
      const agent = await api.agent("Prompted agent", { prompt: "You are Ada.\nBe brief." })
      await signIn(page, context.url, apiKey, `agents/${agent.public_id}`)
      expect(await waitForHeading(page, /Prompted agent/)).toBe("Prompted agent")
      await press(page, "Edit the prompt")
      await page
        .locator("::-p-aria(System prompt)")
        .fill("You are Ada.\nBe brief.\nAlways confirm the date twice.")
      await press(page, "Save a new version")
      await waitForText(page, /System prompt: version 2 to version 3/)
      const lines = await page.$$eval(".diff-lines .diff-line", (elements) =>
        elements.map((line) => line.textContent)
      )
      expect(lines).toEqual([" You are Ada.", " Be brief.", "+Added: Always confirm the date twice."])
      // the comparison is in the address: another pair is chosen, and the address can be shared
      await page.select("#version-from", "1")
      await page.waitForFunction(() => (globalThis as any).location.search.includes("from=1"))
      await waitForText(page, /System prompt: version 1 to version 3/)

      await press(page, "Edit the codes")
      await press(page, "Add a code")
      await fill(page, "Code 1", "booked")
      await fill(page, "Meaning of code 1", "The caller booked a check-up")
      await press(page, "Save the codes")
      await waitForText(page, /booked\s+The caller booked a check-up/)
      expect((await api.get(`/api/v1/agents/${agent.public_id}`)).call_disposition_codes).toEqual({
        booked: "The caller booked a check-up"
      })
      expect(await inspect(page, "agent")).toEqual([])
    }))

  it("lists the agents a page at a time, the page and the status filter in the address", () =>
    withPage(context.browser, "agents-list", async (page) => {
      for (let i = 1; i <= 21; i++) await api.agent(`Listed agent ${String(i).padStart(2, "0")}`)
      const archived = await api.agent("Archived agent")
      await api.patch(`/api/v1/agents/${archived.public_id}`, { status: "archived" })
      await signIn(page, context.url, apiKey, "agents")
      await waitForText(page, /Page 1 of \d+/)
      expect(await firstColumn(page)).toHaveLength(20)
      await press(page, "Next page", "link")
      await page.waitForFunction(() => (globalThis as any).location.search === "?page=2")
      await waitForText(page, /Page 2 of/)
      const second = await firstColumn(page)
      // a reload shows the same page
      await page.reload({ waitUntil: "load" })
      await waitForText(page, /Page 2 of/)
      expect(await firstColumn(page)).toEqual(second)

      await page.select("#filter-status", "archived")
      await page.waitForFunction(() => (globalThis as any).location.search === "?status=archived")
      await page.waitForFunction(() => (globalThis as any).document.querySelectorAll("tbody tr").length === 1)
      expect(await firstColumn(page)).toEqual(["Archived agent"])
      expect(await inspect(page, "agents")).toEqual([])
      // back: the second page of all agents again
      await page.goBack()
      await waitForText(page, /Page 2 of/)
      expect(await address(page)).toBe("/console/agents?page=2")
      expect(await firstColumn(page)).toEqual(second)
    }))
})
