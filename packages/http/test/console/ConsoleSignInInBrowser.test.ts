import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { Page } from "puppeteer-core"
import { send } from "../support/ServerProcesses.js"
import { chromium, inspect, open, waitForHeading, waitForText, withPage } from "./support/ConsoleBrowser.js"

const apiKey = `vap_${"S".repeat(40)}`
/** The main navigation's sections, in order; a section shows once its screen is built. */
const sections = [
  "Overview",
  "Agents",
  "Runs",
  "Campaigns",
  "Phone numbers",
  "Tools",
  "Knowledge base",
  "Webhooks",
  "API keys",
  "Usage"
]

/** The focused element: its tag, its accessible text, and whether its focus is drawn. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const element = (globalThis as any).document.activeElement
    const style = (globalThis as any).getComputedStyle(element)
    return {
      tag: element.tagName.toLowerCase() as string,
      text: ((element.labels?.[0]?.textContent ?? element.textContent ?? "") as string).trim(),
      outlined: style.outlineStyle !== "none" && parseFloat(style.outlineWidth) > 0
    }
  })

/** Presses Tab (Shift+Tab when `backwards`) until the focus is on the wanted element (at most `limit` times). */
const tabTo = async (
  page: Page,
  matches: (f: Awaited<ReturnType<typeof focused>>) => boolean,
  limit = 30,
  backwards = false
) => {
  for (let i = 0; i < limit; i++) {
    if (backwards) await page.keyboard.down("Shift")
    await page.keyboard.press("Tab")
    if (backwards) await page.keyboard.up("Shift")
    const now = await focused(page)
    if (matches(now)) return now
  }
  throw new Error("Tab never reached the element")
}

const mainNavLinks = (page: Page) =>
  page.$$eval('nav[aria-label="Main"] a', (links) => links.map((link) => (link.textContent ?? "").trim()))

describe.skipIf(chromium === undefined)("the console in a browser: signing in and finding one's way", () => {
  let context: Awaited<ReturnType<typeof open>>
  beforeAll(async () => {
    context = await open(apiKey)
  }, 120_000)
  afterAll(async () => {
    await context?.close()
  }, 60_000)

  it("signs in with the key; a bad key shows the API's reason; signing out forgets the key", () =>
    withPage(context.browser, "sign-in", async (page) => {
      await page.goto(`${context.url}/agents`, { waitUntil: "load" })
      expect(await waitForHeading(page, /Sign in/)).toBe("Sign in")
      expect(await inspect(page, "sign-in")).toEqual([])

      const refused = await send(context.server.port, "GET", "/api/v1/agents?limit=1", {
        apiKey: `vap_${"X".repeat(40)}`
      })
      expect(refused.status).toBe(401)
      await page.locator("::-p-aria(API key)").fill(`vap_${"X".repeat(40)}`)
      await page.locator('::-p-aria(Sign in[role="button"])').click()
      await page.waitForSelector('[role="alert"]')
      expect(await page.$eval('[role="alert"]', (alert) => alert.textContent)).toBe(refused.json.detail)
      expect(await inspect(page, "sign-in-refused")).toEqual([])

      await page.locator("::-p-aria(API key)").fill(apiKey)
      await page.locator('::-p-aria(Sign in[role="button"])').click()
      // the address asked for before signing in is the screen shown after
      expect(await waitForHeading(page, /^Agents$/)).toBe("Agents")
      expect(await page.evaluate(() => (globalThis as any).sessionStorage.length)).toBe(1)
      expect(await page.evaluate(() => (globalThis as any).document.cookie)).toBe("")
      // a reload keeps the tab signed in
      await page.reload({ waitUntil: "load" })
      expect(await waitForHeading(page, /^Agents$/)).toBe("Agents")

      await page.locator('::-p-aria(Sign out[role="button"])').click()
      expect(await waitForHeading(page, /Sign in/)).toBe("Sign in")
      expect(await page.evaluate(() => (globalThis as any).sessionStorage.length)).toBe(0)
    }))

  it("has a main navigation landmark whose links lead to their screens, and back returns", () =>
    withPage(context.browser, "navigation", async (page) => {
      await page.goto(context.url, { waitUntil: "load" })
      await page.locator("::-p-aria(API key)").fill(apiKey)
      await page.locator('::-p-aria(Sign in[role="button"])').click()
      expect(await waitForHeading(page, /^Overview$/)).toBe("Overview")
      await waitForText(page, /This period/)
      expect(await page.$$eval('nav[aria-label="Main"]', (navs) => navs.length)).toBe(1)
      const links = await mainNavLinks(page)
      // the sections built so far, in the order (a section without a screen has no link yet)
      expect(links.slice(0, 2)).toEqual(["Overview", "Agents"])
      expect(links).toEqual(sections.filter((section) => links.includes(section)))
      expect(await inspect(page, "overview")).toEqual([])

      for (const link of links) {
        await page.locator(`nav[aria-label="Main"] ::-p-aria(${link}[role="link"])`).click()
        expect(
          await waitForHeading(page, new RegExp(link === "Overview" ? "^Overview$" : link, "i"))
        ).toBeTruthy()
        expect(
          await page.$eval('nav[aria-label="Main"] [aria-current="page"]', (current) => current.textContent)
        ).toBe(link)
      }
      await page.goBack()
      expect(await waitForHeading(page, new RegExp(links.at(-2) ?? "Overview", "i"))).toBeTruthy()
      // an address no screen answers says so, inside the frame
      await page.goto(`${context.url}/no-such-screen`, { waitUntil: "load" })
      expect(await waitForHeading(page, /Page not found/)).toBe("Page not found")
    }))

  it("can be signed in to and navigated with Tab and Enter alone, the focus always drawn", () =>
    withPage(context.browser, "keyboard", async (page) => {
      await page.goto(context.url, { waitUntil: "load" })
      await waitForHeading(page, /Sign in/)
      const field = await tabTo(page, (f) => f.tag === "input" && f.text === "API key")
      expect(field.outlined).toBe(true)
      await page.keyboard.type(apiKey)
      await page.keyboard.press("Enter")
      expect(await waitForHeading(page, /^Overview$/)).toBe("Overview")

      // signed in, the screen's heading has the focus; the navigation is just before the screen
      expect((await focused(page)).tag).toBe("h1")
      const agents = await tabTo(page, (f) => f.tag === "a" && f.text === "Agents", 10, true)
      expect(agents.outlined).toBe(true)
      await page.keyboard.press("Enter")
      expect(await waitForHeading(page, /^Agents$/)).toBe("Agents")
      // the new screen has the focus on its heading: Tab goes on from the top of the screen
      expect((await focused(page)).tag).toBe("h1")
      const create = await tabTo(page, (f) => f.text === "Create an agent from a script", 5)
      expect(create.outlined).toBe(true)
      await page.keyboard.press("Enter")
      expect(await waitForHeading(page, /Create an agent/)).toBe("Create an agent from a script")

      // on a page just opened, the first Tab reaches the link that skips to the screen
      await page.reload({ waitUntil: "load" })
      await waitForHeading(page, /Create an agent/)
      const skip = await tabTo(page, (f) => f.tag === "a", 3)
      expect(skip.text).toBe("Skip to the content")
      expect(skip.outlined).toBe(true)
      await page.keyboard.press("Enter")
      expect((await focused(page)).tag).toBe("main")

      // signing out with the keyboard: the button is in the header, before the navigation
      const signOut = await tabTo(page, (f) => f.tag === "button" && f.text === "Sign out", 20, true)
      expect(signOut.outlined).toBe(true)
      await page.keyboard.press("Enter")
      expect(await waitForHeading(page, /Sign in/)).toBe("Sign in")
    }))
})
