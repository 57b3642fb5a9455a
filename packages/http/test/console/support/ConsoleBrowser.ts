import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import type { Browser, Page } from "puppeteer-core"
import * as Chromium from "../../support/Chromium.js"
import { removeDataDirectories, type Running, start, stop } from "../../support/ServerProcesses.js"

/** Debian's chromium; missing locally, the browser tests are skipped with a warning, never in CI. */
export const chromium = Chromium.find("the console's browser tests")

/** Where screenshots go (git-ignored; CI keeps `build/`). */
export const screenshots = fileURLToPath(new URL("../../../../../build/screenshots/", import.meta.url))

/** The sizes every screen is looked at: a laptop and a phone. */
export const viewports = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 }
] as const

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8")

/** A bundled server on the embedded database and a chromium, for one test file. */
export interface ConsoleBrowser {
  readonly server: Running
  readonly browser: Browser
  /** The console's address on the server (`http://127.0.0.1:<port>/console`). */
  readonly url: string
}

/**
 * Starts the bundled server (a child process in its own group, on a fresh embedded database, with
 * `apiKey` as its first organization's key) and a headless chromium with a fresh profile. `close` stops
 * both and removes what they left; it runs on every path (the server's group is killed with the test
 * process too, see ServerProcesses).
 */
export const open = async (apiKey: string, env: Record<string, string> = {}) => {
  const profile = mkdtempSync(join(tmpdir(), "vap-chromium-"))
  const server = await start({ BOOTSTRAP_API_KEY: apiKey, ...env })
  let browser: Browser | undefined
  try {
    browser = await Chromium.launch(chromium!, {
      userDataDir: profile,
      args: [
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run"
      ]
    })
  } catch (error) {
    await stop(server)
    rmSync(profile, { recursive: true, force: true })
    throw error
  }
  const opened = { server, browser, url: `http://127.0.0.1:${server.port}/console` }
  return {
    ...opened,
    close: async () => {
      await browser.close().catch(() => undefined)
      await stop(server)
      rmSync(profile, { recursive: true, force: true })
      removeDataDirectories()
    }
  }
}

/** What went wrong in a page while a test used it: script errors, refused content (CSP), dialogs. */
export interface PageTrouble {
  readonly errors: Array<string>
  readonly dialogs: Array<string>
  /** Content-security-policy refusals, of every document the page showed (reloads and `goto` included). */
  readonly refused: Array<string>
  /** Requests that carried the API key anywhere but the page's own origin, or the key in their address. */
  readonly keyLeaks: Array<string>
}

/**
 * A fresh page in a context of its own (its own sessionStorage), at 1280×800, recording script errors,
 * dialogs (`alert`), every content-security-policy refusal (reported to the test as it happens, so a later
 * document does not forget it) and every request that would let the key out.
 */
export const newPage = async (
  browser: Browser
): Promise<{ readonly page: Page; readonly trouble: PageTrouble }> => {
  const context = await browser.createBrowserContext()
  const page = await context.newPage()
  const trouble: PageTrouble = { errors: [], dialogs: [], refused: [], keyLeaks: [] }
  page.on("pageerror", (error) => trouble.errors.push(String(error)))
  page.on("request", (request) => {
    const key = request.headers()["x-api-key"]
    const url = request.url()
    if (/vap_[A-Za-z0-9]{40}/.test(url)) trouble.keyLeaks.push(`the key in an address: ${url}`)
    if (key === undefined) return
    const from = page.url()
    if (!from.startsWith("http") || new URL(url).origin !== new URL(from).origin)
      trouble.keyLeaks.push(`the key sent to ${url} from ${from}`)
  })
  await page.exposeFunction("__reportCspViolation", (violation: string) => {
    trouble.refused.push(violation)
  })
  page.on("dialog", (dialog) => {
    trouble.dialogs.push(`${dialog.type()}: ${dialog.message()}`)
    void dialog.dismiss()
  })
  await page.evaluateOnNewDocument(() => {
    const seen: Array<string> = []
    ;(globalThis as any).__cspViolations = seen
    ;(globalThis as any).document.addEventListener("securitypolicyviolation", (event: any) => {
      const violation = `${event.violatedDirective} ${event.blockedURI}`
      seen.push(violation)
      void (globalThis as any).__reportCspViolation?.(violation)
    })
  })
  await page.setViewport(viewports[0])
  return { page, trouble }
}

/** The content-security-policy refusals the page met so far. */
export const cspViolations = (page: Page): Promise<ReadonlyArray<string>> =>
  page.evaluate(() => (globalThis as any).__cspViolations ?? [])

/** Waits until the page's text matches `pattern`. */
export const waitForText = (page: Page, pattern: RegExp, timeout = 15_000) =>
  page.waitForFunction(
    (source, flags) => new RegExp(source, flags).test((globalThis as any).document.body.innerText),
    { timeout },
    pattern.source,
    pattern.flags
  )

/** The text of the screen's one `h1`, once it has one matching `pattern`. */
export const waitForHeading = async (page: Page, pattern: RegExp, timeout = 15_000) => {
  await page.waitForFunction(
    (source, flags) => {
      const h1 = (globalThis as any).document.querySelector("h1")
      return h1 !== null && new RegExp(source, flags).test(h1.textContent)
    },
    { timeout },
    pattern.source,
    pattern.flags
  )
  return page.$eval("h1", (h1) => h1.textContent)
}

/** The serious and critical accessibility violations axe-core finds in the page as it is now. */
export const axeViolations = async (page: Page): Promise<ReadonlyArray<string>> => {
  // evaluated through the DevTools protocol: the console's CSP (no inline script) does not apply to it
  if (!(await page.evaluate(() => "axe" in globalThis))) await page.evaluate(axeSource)
  const violations: ReadonlyArray<{
    id: string
    impact: string
    help: string
    nodes: ReadonlyArray<{ target: unknown }>
  }> = await page.evaluate(async () => {
    const result = await (globalThis as any).axe.run((globalThis as any).document, {
      resultTypes: ["violations"]
    })
    return result.violations.map((v: any) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n: any) => ({ target: n.target }))
    }))
  })
  return violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map(
      (violation) =>
        `${violation.impact} ${violation.id}: ${violation.help} at ${JSON.stringify(violation.nodes.map((n) => n.target))}`
    )
}

/**
 * Looks at the screen as it is at both sizes: a full-page screenshot of each into build/screenshots/
 * (`console-<name>-<width>.png`) and axe-core's serious or critical violations at each (answered, to be
 * expected empty). The page is left at 1280×800.
 */
export const inspect = async (page: Page, name: string): Promise<ReadonlyArray<string>> => {
  mkdirSync(screenshots, { recursive: true })
  const found: Array<string> = []
  for (const viewport of viewports) {
    await page.setViewport(viewport)
    // a frame for the layout to settle at the new size
    await page.evaluate(() => new Promise((resolve) => (globalThis as any).requestAnimationFrame(resolve)))
    await page.screenshot({
      path: join(screenshots, `console-${name}-${viewport.width}.png`),
      fullPage: true
    })
    for (const violation of await axeViolations(page)) found.push(`${viewport.width}px: ${violation}`)
  }
  await page.setViewport(viewports[0])
  return found
}

/** Keeps a screenshot of a failing page for whoever reads the CI log. */
export const keepFailure = async (page: Page | undefined, name: string) => {
  if (page === undefined) return
  mkdirSync(screenshots, { recursive: true })
  await page
    .screenshot({ path: join(screenshots, `console-${name}-failure.png`), fullPage: true })
    .catch(() => undefined)
}

/**
 * Runs `test` on a fresh page and then checks what a person would never want to see: a script error, a
 * dialog (an injected `alert`), content the CSP refused. A failure keeps a screenshot of the page.
 */
export const withPage = async (
  browser: Browser,
  name: string,
  test: (page: Page, trouble: PageTrouble) => Promise<void>
): Promise<void> => {
  const { page, trouble } = await newPage(browser)
  try {
    await test(page, trouble)
    if (trouble.errors.length > 0) throw new Error(`script errors: ${trouble.errors.join("; ")}`)
    if (trouble.dialogs.length > 0) throw new Error(`dialogs: ${trouble.dialogs.join("; ")}`)
    const refused = [...trouble.refused, ...(await cspViolations(page))]
    if (refused.length > 0) throw new Error(`content refused by the CSP: ${[...new Set(refused)].join("; ")}`)
    if (trouble.keyLeaks.length > 0) throw new Error(`the API key let out: ${trouble.keyLeaks.join("; ")}`)
  } catch (error) {
    await keepFailure(page, name)
    throw error
  } finally {
    await page.browserContext().close()
  }
}

/** Opens the console at `path` (relative to it) and signs in with the key; answers once the screen's heading shows. */
export const signIn = async (page: Page, consoleUrl: string, apiKey: string, path = "") => {
  await page.goto(`${consoleUrl}/${path}`, { waitUntil: "load" })
  await page.locator("::-p-aria(API key)").fill(apiKey)
  await page.locator('::-p-aria(Sign in[role="button"])').click()
  await page.waitForFunction(() => {
    const h1 = (globalThis as any).document.querySelector("h1")
    return h1 !== null && h1.textContent !== "Sign in"
  })
}

/** Clicks the button or link with this accessible name (exactly). */
export const press = (page: Page, name: string, role: "button" | "link" = "button") =>
  page.locator(`::-p-aria([name="${name}"][role="${role}"])`).click()

/** Fills the field with this label. */
export const fill = (page: Page, label: string, value: string) =>
  page.locator(`::-p-aria([name="${label}"])`).fill(value)
