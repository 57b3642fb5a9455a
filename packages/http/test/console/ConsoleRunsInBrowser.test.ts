import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { CallingClock } from "@voice-agent-platform/core/testing"
import type { Page } from "puppeteer-core"
import { call, send } from "../support/ServerProcesses.js"
import { callableNumber, placeCall } from "./support/ConsoleCalls.js"
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

const apiKey = `vap_${"R".repeat(40)}`
const injected = "<img src=x onerror=alert(1)>"

/** The address the page is at, relative to the server (`/console/runs?status=completed`). */
const address = (page: Page) =>
  page.evaluate(() => (globalThis as any).location.pathname + (globalThis as any).location.search)

/** The texts of the list's first column (the runs' links). */
const firstColumn = (page: Page) =>
  page.$$eval("table tbody tr td:first-child", (cells) =>
    cells.map((cell) => (cell.textContent ?? "").trim())
  )

/** The player's state: its source, whether it has read the audio's length, its length and where it is. */
const player = (page: Page) =>
  page.$eval("audio", (audio: any) => ({
    src: audio.src as string,
    readyState: audio.readyState as number,
    duration: audio.duration as number,
    currentTime: audio.currentTime as number
  }))

describe.skipIf(chromium === undefined)("the console in a browser: runs", () => {
  let context: Awaited<ReturnType<typeof open>>
  let api: ReturnType<typeof apiOf>
  const number = callableNumber
  beforeAll(async () => {
    context = await open(apiKey, { SIM_CALL_SECONDS: "6", ...CallingClock.env() })
    api = apiOf(context.server.port, apiKey)
  }, 120_000)
  afterAll(async () => {
    await context?.close()
  }, 60_000)

  it("shows a simulated call on its page: its transcript beside a recording that plays from a chosen turn", () =>
    withPage(context.browser, "run", async (page) => {
      const agent = await api.agent("Caller agent", { greeting: "Hello, this is Ada from Smile Clinic." })
      const run = await placeCall(context.server.port, apiKey, agent.public_id, number)
      expect(run.status).toBe("completed")
      const runPath = `/api/v1/agents/${agent.public_id}/conversations/${run.workflow_run_id}`
      // the recording's link answers a WAV file
      const link = await api.get(`${runPath}/recording`)
      const file = await call(
        context.server.port,
        "GET",
        new URL(link.download_url).pathname + new URL(link.download_url).search
      )
      expect(file.status).toBe(200)
      expect(file.headers["content-type"]).toBe("audio/wav")

      await signIn(page, context.url, apiKey, `runs/${run.workflow_run_id}?agent_id=${agent.public_id}`)
      expect(await waitForHeading(page, /^Run \d+$/)).toBe(`Run ${run.workflow_run_id}`)
      await waitForText(page, /Hello, this is Ada from Smile Clinic\./)
      await page.waitForFunction(() => {
        const audio = (globalThis as any).document.querySelector("audio")
        return audio !== null && audio.readyState >= 1
      })
      const loaded = await player(page)
      // played from memory: the bytes were fetched with the key (the CSP allows media from blob: only so)
      expect(loaded.src).toMatch(/^blob:/)
      expect(loaded.duration).toBeCloseTo(6, 0)

      const starts = await page.$$eval(".turn button", (buttons) =>
        buttons.map((button) => Number(button.getAttribute("data-start")))
      )
      expect(starts.length).toBeGreaterThanOrEqual(3)
      expect(starts[0]).toBe(0)
      // each turn is later in the recording than the one before, and within it
      for (let i = 1; i < starts.length; i++) expect(starts[i]!).toBeGreaterThan(starts[i - 1]!)
      expect(starts.at(-1)!).toBeLessThan(6)
      const chosen = Math.min(2, starts.length - 1)
      await page.$$eval(".turn button", (buttons, index) => (buttons[index] as any).click(), chosen)
      const after = await player(page)
      expect(Math.abs(after.currentTime - starts[chosen]!)).toBeLessThan(0.5)

      const text = await page.evaluate(() => (globalThis as any).document.body.innerText as string)
      expect(text).toMatch(/Status\s+completed/)
      expect(text).toMatch(/Phone number\s+\+\d+/)
      expect(text).toContain("Thank you for talking with Caller agent")
      expect(text).toMatch(/Simulated call completed/)
      expect(text).toMatch(/Cost[\s\S]*Telephony[\s\S]*Language model/)
      expect(await inspect(page, "run")).toEqual([])
    }))

  it("says a live run's transcript and recording are not available yet, without an error", () =>
    withPage(context.browser, "run-live", async (page) => {
      const agent = await api.agent("Chatting agent")
      const chat = await api.post(`/api/v1/agents/${agent.public_id}/conversations`, { mode: "chat" })
      await signIn(page, context.url, apiKey, `runs/${chat.workflow_run_id}?agent_id=${agent.public_id}`)
      await waitForText(page, /not available yet/)
      expect(await page.$$("[role=alert]")).toHaveLength(0)
    }))

  it("filters the runs by what the address says, and a reload keeps the filters and the page", () =>
    withPage(context.browser, "runs-list", async (page) => {
      const agent = await api.agent("Listed caller")
      const other = await api.agent("Other agent")
      await api.post(`/api/v1/agents/${other.public_id}/conversations`, { mode: "chat" })
      const run = await placeCall(context.server.port, apiKey, agent.public_id, number)
      await signIn(page, context.url, apiKey, "runs")
      expect(await waitForHeading(page, /^Runs$/)).toBe("Runs")
      await waitForText(page, /Page 1 of/)
      expect((await firstColumn(page)).length).toBeGreaterThanOrEqual(3)

      await page.waitForSelector("#filter-agent_id")
      await page.select("#filter-agent_id", agent.public_id)
      await page.waitForFunction(
        (id) => (globalThis as any).location.search === `?agent_id=${id}`,
        {},
        agent.public_id
      )
      await page.select("#filter-status", "completed")
      await fill(page, "Phone number", number)
      await press(page, "Apply")
      const expected = `/console/runs?agent_id=${agent.public_id}&phone_number=${encodeURIComponent(number)}&status=completed`
      await page.waitForFunction(
        (want) => (globalThis as any).location.pathname + (globalThis as any).location.search === want,
        {},
        expected
      )
      await page.waitForFunction(() => (globalThis as any).document.querySelectorAll("tbody tr").length === 1)
      expect(await firstColumn(page)).toEqual([`Run ${run.workflow_run_id}`])

      await page.reload({ waitUntil: "load" })
      await page.waitForFunction(() => (globalThis as any).document.querySelectorAll("tbody tr").length === 1)
      expect(await address(page)).toBe(expected)
      expect(await firstColumn(page)).toEqual([`Run ${run.workflow_run_id}`])
      expect(await page.$eval("#filter-status", (select: any) => select.value)).toBe("completed")
      expect(await page.$eval("#search-phone_number", (input: any) => input.value)).toBe(number)
      expect(await inspect(page, "runs")).toEqual([])

      // a mode no run of this agent has: nothing matches, said as such
      await page.select("#filter-mode", "webrtc")
      await waitForText(page, /No run matches\./)
      await page.goBack()
      await page.waitForFunction(() => (globalThis as any).document.querySelectorAll("tbody tr").length === 1)

      await press(page, `Run ${run.workflow_run_id}`, "link")
      expect(await waitForHeading(page, /^Run \d+$/)).toBe(`Run ${run.workflow_run_id}`)
    }))

  it("deletes a run after a confirmation that says it is irreversible, then shows the list", () =>
    withPage(context.browser, "run-delete", async (page) => {
      const agent = await api.agent("Deleted caller")
      const run = await placeCall(context.server.port, apiKey, agent.public_id, number)
      await signIn(page, context.url, apiKey, `runs/${run.workflow_run_id}?agent_id=${agent.public_id}`)
      await waitForText(page, /Transcript/)
      await press(page, "Delete this run")
      await page.waitForSelector("dialog[open]")
      const said = await page.$eval("dialog[open]", (dialog: any) => dialog.innerText as string)
      expect(said).toMatch(/irreversible/i)
      expect(await inspect(page, "run-delete")).toEqual([])
      await press(page, "Delete the run for good")
      expect(await waitForHeading(page, /^Runs$/)).toBe("Runs")
      expect(await address(page)).toBe("/console/runs")
      const gone = await send(
        context.server.port,
        "GET",
        `/api/v1/agents/${agent.public_id}/conversations/${run.workflow_run_id}`,
        { apiKey }
      )
      expect(gone.status).toBe(404)
    }))

  it(`shows a run's user data holding ${injected} as text, and runs nothing`, () =>
    withPage(context.browser, "run-user-data", async (page) => {
      const agent = await api.agent(injected, { greeting: `Hello ${injected}` })
      const run = await placeCall(context.server.port, apiKey, agent.public_id, number, {
        first_name: injected
      })
      await signIn(page, context.url, apiKey, `runs?agent_id=${agent.public_id}`)
      await page.locator(`::-p-aria([name="${injected}"][role="link"])`).wait()
      await press(page, `Run ${run.workflow_run_id}`, "link")
      await waitForText(page, /first name: <img src=x onerror=alert\(1\)>/)
      await waitForText(page, /Thank you for talking with <img src=x onerror=alert\(1\)>/)
      // no element was made from the text, and nothing ran (withPage fails on any dialog or script error)
      expect(await page.$$eval("img", (images) => images.length)).toBe(0)
    }))
})
