import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { Page } from "puppeteer-core"
import {
  chromium,
  fill,
  inspect,
  open,
  press,
  signIn,
  waitForText,
  withPage
} from "./support/ConsoleBrowser.js"

const apiKey = `vap_${"K".repeat(40)}`

/** The rows of the keys' table as their texts, cell by cell. */
const keyRows = (page: Page) =>
  page.$$eval("table tbody tr", (rows) =>
    rows.map((row) =>
      Array.from((row as any).querySelectorAll("td") as ArrayLike<{ textContent: string | null }>).map(
        (cell) => (cell.textContent ?? "").trim()
      )
    )
  )

/** The element that has the focus: its tag and its label or id. */
const focusedElement = (page: Page) =>
  page.evaluate(() => {
    const active = (globalThis as any).document.activeElement
    return `${active?.tagName} ${active?.getAttribute("aria-label") ?? active?.id ?? ""}`.trim()
  })

describe.skipIf(chromium === undefined)("the console in a browser: API keys", () => {
  let context: Awaited<ReturnType<typeof open>>
  /** A request to the API with this key, from the test (not the browser): its status. */
  const statusWith = async (key: string) =>
    (
      await fetch(`http://127.0.0.1:${context.server.port}/api/v1/agents?limit=1`, {
        headers: { "x-api-key": key }
      })
    ).status
  beforeAll(async () => {
    context = await open(apiKey)
  }, 120_000)
  afterAll(async () => {
    await context?.close()
  }, 60_000)

  it("creates a key shown once, which the API accepts, then revokes it, which the API refuses at once", () =>
    withPage(context.browser, "api-keys", async (page) => {
      await signIn(page, context.url, apiKey)
      await press(page, "API keys", "link")
      await waitForText(page, /The organization's keys/)
      await page.waitForSelector("table tbody tr")
      expect(await keyRows(page)).toEqual([
        [`Key vap_KKKK`, "vap_KKKK…", expect.any(String), expect.any(String), "Active", "Revoke"]
      ])

      await press(page, "Create a key")
      await waitForText(page, /Give the key a name/)
      await fill(page, "Key name", "CRM integration")
      await press(page, "Create a key")
      await waitForText(page, /you will not see it again/)
      // the key shown once takes the focus (a screen reader reads it out at once)
      await expect.poll(() => focusedElement(page)).toBe("DIV The new key")
      const created = await page.$eval(".secret-value code", (code) => code.textContent ?? "")
      expect(created).toMatch(/^vap_[A-Za-z0-9]{40}$/)
      expect(await page.$('::-p-aria([name="Copy the key"][role="button"])')).not.toBeNull()
      await page.waitForFunction(() => (globalThis as any).document.querySelectorAll("tbody tr").length === 2)
      const rows = await keyRows(page)
      expect(rows[0]).toEqual([
        "CRM integration",
        `${created.slice(0, 8)}…`,
        expect.any(String),
        "Never",
        "Active",
        "Revoke"
      ])
      // the page never shows more of another key than its prefix
      expect(await page.evaluate(() => (globalThis as any).document.body.innerText)).not.toContain(apiKey)
      expect(await inspect(page, "api-keys")).toEqual([])

      // the key works at once, from anywhere
      expect(await statusWith(created)).toBe(200)

      await press(page, "I have stored it: hide the key")
      expect(await page.$(".secret-value")).toBeNull()
      // the button pressed is gone: the focus is back on the name field, not on the page's start
      await expect.poll(() => focusedElement(page)).toBe("INPUT key-name")
      await press(page, "Revoke CRM integration")
      await waitForText(page, /Revoke this key\?/)
      await waitForText(page, /stops working at once/)
      expect(await inspect(page, "api-keys-revoke")).toEqual([])
      await press(page, "Revoke the key")
      await waitForText(page, /is revoked: the API refuses it from now on/)
      await page.waitForFunction(() =>
        /Revoked/.test(
          (globalThis as any).document.querySelector("tbody tr td:nth-child(5)")?.textContent ?? ""
        )
      )
      expect((await keyRows(page))[0]![5]).toBe("—")
      // the revoked key's button is gone: the focus is on the message that says it is revoked
      await expect.poll(() => focusedElement(page)).toMatch(/^P/)
      expect(await statusWith(created)).toBe(401)
      expect(await statusWith(apiKey)).toBe(200)

      // the last active key: the API refuses, and the console says why (and stays signed in)
      await press(page, "Revoke Key vap_KKKK")
      await waitForText(page, /the console signs out/)
      await press(page, "Revoke the key")
      await waitForText(page, /Not revoked: .*last_active_key/)
      expect(await page.$eval("h1", (h1) => h1.textContent)).toBe("API keys")
      expect(await statusWith(apiKey)).toBe(200)
      expect(await inspect(page, "api-keys-last")).toEqual([])
    }))
})
