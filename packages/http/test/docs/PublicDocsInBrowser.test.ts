import { afterAll, describe, expect, it } from "@effect/vitest"
import { existsSync, mkdirSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import type { Page } from "puppeteer-core"
import * as Chromium from "../support/Chromium.js"
import { removeDataDirectories, send, start, stop } from "../support/ServerProcesses.js"

/** Debian's chromium; missing locally, the check is skipped with a warning, never in CI. */
const chromium = Chromium.find("the browser check of /api/v1/public-docs")

const screenshots = fileURLToPath(new URL("../../../../build/", import.meta.url))
const apiKey = `vap_${"D".repeat(40)}`
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Clicks the first visible element matching `selector` whose whole text matches `pattern`; answers its text. */
const clickText = (page: Page, selector: string, pattern: RegExp) =>
  page.evaluate(
    (selector, source) => {
      const re = new RegExp(source)
      const element = [...(globalThis as any).document.querySelectorAll(selector)].find((e: any) =>
        re.test(e.innerText.replace(/\s+/g, " ").trim())
      )
      element?.click()
      return element?.innerText.replace(/\s+/g, " ").trim() ?? null
    },
    selector,
    pattern.source
  )

/** Waits until the page's text matches `pattern` (at most `ms`). */
const waitForText = (page: Page, pattern: RegExp, ms = 15_000) =>
  page.waitForFunction(
    (source) => new RegExp(source).test((globalThis as any).document.body.innerText),
    { timeout: ms },
    pattern.source
  )

/** Waits until a button's text matches `pattern` (at most `ms`). */
const waitForButton = (page: Page, pattern: RegExp, ms = 15_000) =>
  page.waitForFunction(
    (source) =>
      [...(globalThis as any).document.querySelectorAll("button")].some((b: any) =>
        new RegExp(source).test(b.innerText.replace(/\s+/g, " ").trim())
      ),
    { timeout: ms },
    pattern.source
  )

describe.skipIf(chromium === undefined)("the interactive reference in a real browser", () => {
  afterAll(removeDataDirectories)

  it("lists the operations and sends a try-it request with the API key", async () => {
    const server = await start({ BOOTSTRAP_API_KEY: apiKey })
    const browser = await Chromium.launch(chromium!)
    try {
      // one agent, so that the list the browser asks for is not empty
      expect(
        (
          await send(
            server.port,
            "POST",
            "/api/v1/agents/from-script",
            { apiKey },
            { agent: { greeting: "Hi" } }
          )
        ).status
      ).toBe(200)
      const page = await browser.newPage()
      await page.setViewport({ width: 1400, height: 1000 })
      await page.goto(`http://127.0.0.1:${server.port}/api/v1/public-docs`, {
        waitUntil: "networkidle0",
        timeout: 30_000
      })
      await waitForText(page, /Voice Agent Platform API/)

      // the operations are listed: every group in the sidebar, the agents group's operations once opened
      const text: string = await page.evaluate(() => (globalThis as any).document.body.innerText)
      for (const group of ["agents", "calls", "conversations", "webhooks", "knowledgeBase", "usage"])
        expect(text).toContain(group)
      expect(await clickText(page, "button", /^Open Group agents$/), "the agents group").not.toBeNull()
      await waitForText(page, /List agents/)
      expect(await page.evaluate(() => (globalThis as any).document.body.innerText)).toMatch(
        /Create Agent From Call Script[\s\S]*List agents[\s\S]*Get an agent/
      )

      // try it: "List agents" in the sidebar, its request client, the API key as the apiKey scheme, Send
      const listAgents = await page.evaluate(() => {
        const item = [...(globalThis as any).document.querySelectorAll("div, span, a")].find(
          (e: any) => e.children.length === 0 && e.textContent.trim() === "List agents"
        )
        item?.click()
        return item !== undefined
      })
      expect(listAgents, "List agents in the sidebar").toBe(true)
      await waitForButton(page, /^Test Request \(get \/api\/v1\/agents\)$/)
      expect(
        await clickText(page, "button", /^Test Request \(get \/api\/v1\/agents\)$/),
        "Test Request"
      ).not.toBeNull()
      await waitForText(page, /Authentication/)
      await sleep(500)
      const authType = await page.evaluate(() =>
        [...(globalThis as any).document.querySelectorAll("button")]
          .filter((b: any) => /Auth Type/.test(b.innerText) && b.getBoundingClientRect().y > 0)
          .map((b: any) => ({
            x: b.getBoundingClientRect().x as number,
            y: b.getBoundingClientRect().y as number
          }))
          .pop()
      )
      expect(authType).toBeDefined()
      await page.mouse.click(authType!.x + 10, authType!.y + 5)
      await sleep(500)
      expect(await clickText(page, "li", /^apiKey$/)).toBe("apiKey")
      await waitForText(page, /X-API-Key/)
      const focused = await page.evaluate(() => {
        const input = [...(globalThis as any).document.querySelectorAll("input")]
          .filter(
            (e: any) =>
              e.getBoundingClientRect().y > 0 && /Value/.test(e.parentElement?.parentElement?.innerText ?? "")
          )
          .find((e: any) => /Password/.test(e.parentElement?.parentElement?.innerText ?? ""))
        input?.focus()
        return input !== undefined
      })
      expect(focused).toBe(true)
      await page.keyboard.type(apiKey)
      expect(await clickText(page, "button", /^Send( Send get request .*)?$/), "Send").not.toBeNull()
      await waitForText(page, /200 OK/)
      await waitForText(page, /"total_count": 1/)

      await sleep(500) // the answer fades in
      mkdirSync(screenshots, { recursive: true })
      await page.screenshot({ path: join(screenshots, "public-docs.png") })
      expect(existsSync(join(screenshots, "public-docs.png"))).toBe(true)
    } catch (error) {
      // what the browser showed when it failed, for whoever reads the CI log
      mkdirSync(screenshots, { recursive: true })
      const [page] = (await browser.pages()).slice(-1)
      await page?.screenshot({ path: join(screenshots, "public-docs-failure.png") }).catch(() => undefined)
      throw error
    } finally {
      await browser.close()
      await stop(server)
    }
  }, 120_000)
})
