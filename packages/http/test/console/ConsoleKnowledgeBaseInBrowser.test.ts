import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { Page } from "puppeteer-core"
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

const apiKey = `vap_${"D".repeat(40)}`

/** A clinic's handbook long enough to be split into several chunks; one paragraph speaks of parking. */
const handbook = [
  "# Smile Clinic handbook",
  ...Array.from(
    { length: 12 },
    (_, i) =>
      `Section ${i + 1}. Appointments are booked by phone or online; a check-up takes thirty minutes and ` +
      `the hygienist sees patients on weekdays. Bring your previous X-rays if you have them. `.repeat(2)
  ),
  "Parking: patients park for free in the courtyard behind the clinic, entrance from Koszykowa street."
].join("\n\n")

/** Chooses a file in the page's file field. */
const choose = async (page: Page, path: string) => {
  // uploadFile is typed for an input element of the DOM's types, which these Node tests do not load
  const input = (await page.$("#document-file")) as { uploadFile: (path: string) => Promise<void> } | null
  await input!.uploadFile(path)
}

describe.skipIf(chromium === undefined)("the console in a browser: knowledge base", () => {
  let context: Awaited<ReturnType<typeof open>>
  let api: ReturnType<typeof apiOf>
  let files: string
  beforeAll(async () => {
    files = mkdtempSync(join(tmpdir(), "vap-kb-"))
    writeFileSync(join(files, "handbook.md"), handbook)
    writeFileSync(join(files, "scan.png"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0xff, 0xfe, 0x00, 0x01]))
    context = await open(apiKey)
    api = apiOf(context.server.port, apiKey)
  }, 120_000)
  afterAll(async () => {
    await context?.close()
    if (files !== undefined) rmSync(files, { recursive: true, force: true })
  }, 60_000)

  it("uploads a document with its progress, shows its chunks, searches it, and deletes it", () =>
    withPage(context.browser, "knowledge-base", async (page) => {
      await signIn(page, context.url, apiKey)
      await press(page, "Knowledge base", "link")
      await waitForText(page, /No documents yet/)
      await press(page, "Upload the document")
      await waitForText(page, /Not uploaded: Choose a file first\./)

      await choose(page, join(files, "handbook.md"))
      await press(page, "Upload the document")
      await waitForText(page, /handbook\.md is uploaded/)
      // the progress bar shows what the browser reported sent: the whole request (the file and the form's
      // boundaries), from its own progress events (the screen sets nothing itself once the upload ends)
      const [sent, total] = await page.$eval("progress", (bar) => [(bar as any).value, (bar as any).max])
      expect(sent).toBe(total)
      expect(total).toBeGreaterThan(Buffer.byteLength(handbook))
      await waitForText(page, /Uploaded handbook\.md: 100%/)
      // the list looks again until the document is read
      await waitForText(page, /Ready: \d+ chunks/)
      const [document] = (await api.get("/api/v1/knowledge-base/documents")).items
      expect(document.processing_status).toBe("completed")
      expect(document.total_chunks).toBeGreaterThan(1)

      await choose(page, join(files, "scan.png"))
      await press(page, "Upload the document")
      await waitForText(page, /scan\.png is uploaded/)
      await waitForText(page, /Failed: /)
      expect(await inspect(page, "knowledge-base")).toEqual([])

      // a search, its words in the address
      await page.locator("::-p-aria(Words to look for)").fill("parking courtyard")
      await press(page, "Search")
      await page.waitForFunction(() => (globalThis as any).location.search === "?q=parking+courtyard")
      await waitForText(page, /handbook\.md, chunk \d+ · relevance/)
      const passages = await page.$$eval(".search-results .passage", (found) =>
        found.map((p) => p.textContent)
      )
      expect(passages[0]).toContain("park for free in the courtyard")
      await page.reload({ waitUntil: "load" })
      await waitForText(page, /handbook\.md, chunk \d+ · relevance/)
      expect(await inspect(page, "knowledge-base-search")).toEqual([])
      await page.locator("::-p-aria(Words to look for)").fill("submarine")
      await press(page, "Search")
      await waitForText(page, /Nothing in the ready documents matches “submarine”/)

      await press(page, "handbook.md", "link")
      expect(await waitForHeading(page, /handbook\.md/)).toBe("handbook.md")
      await page.waitForSelector(".chunks li")
      const chunks = await page.$$eval(".chunks li", (items) => items.map((item) => item.textContent ?? ""))
      expect(chunks).toHaveLength(document.total_chunks)
      expect(chunks[0]).toContain("Smile Clinic handbook")
      expect(chunks.at(-1)).toContain("entrance from Koszykowa street")
      expect(await inspect(page, "knowledge-document")).toEqual([])

      await press(page, "Delete the document")
      await waitForText(page, /Delete this document\?/)
      await page.locator('dialog ::-p-aria([name="Delete the document"][role="button"])').click()
      await waitForHeading(page, /^Knowledge base$/)
      await waitForText(page, /scan\.png/)
      const left = (await api.get("/api/v1/knowledge-base/documents")).items
      expect(left.map((item: { filename: string }) => item.filename)).toEqual(["scan.png"])
    }))
})
