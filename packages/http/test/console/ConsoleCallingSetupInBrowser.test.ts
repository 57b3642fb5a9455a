import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { CallingClock } from "@voice-agent-platform/core/testing"
import type { Page } from "puppeteer-core"
import { send } from "../support/ServerProcesses.js"
import { dialableNumbers } from "./support/CallingNumbers.js"
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

const apiKey = `vap_${"N".repeat(40)}`
const adminToken = "operator-token-console-numbers-0123456789"

/** The rows of the page's first data table, each as its cells' texts. */
const rows = (page: Page, selector = 'table[role="table"]') =>
  page.$$eval(`${selector} tbody tr`, (trs) =>
    trs.map((tr) => Array.from(tr.querySelectorAll("td"), (cell: any) => (cell.textContent ?? "").trim()))
  )

/** The address the page is at, relative to the server. */
const address = (page: Page) =>
  page.evaluate(() => (globalThis as any).location.pathname + (globalThis as any).location.search)

describe.skipIf(chromium === undefined)(
  "the console in a browser: Do not call, triggers, phone numbers",
  () => {
    let context: Awaited<ReturnType<typeof open>>
    let api: ReturnType<typeof apiOf>
    const admin = (method: string, path: string, body: unknown) =>
      send(context.server.port, method, path, { bearer: adminToken }, body).then((answer) => {
        expect(answer.status, `${method} ${path}: ${answer.body}`).toBe(200)
        return answer.json
      })
    beforeAll(async () => {
      context = await open(apiKey, { ADMIN_TOKEN: adminToken, ...CallingClock.env() })
      api = apiOf(context.server.port, apiKey)
    }, 120_000)
    afterAll(async () => {
      await context?.close()
    }, 60_000)

    it(
      "lists, adds and removes numbers of the Do not call list, reached from the campaigns",
      () =>
        withPage(context.browser, "do-not-call", async (page) => {
          await api.post("/api/v1/do-not-call", {
            phone_number: "+48500100201",
            reason: "<b>asked</b> by phone"
          })
          await signIn(page, context.url, apiKey, "campaigns")
          await press(page, "Do not call list", "link")
          await waitForHeading(page, /Do not call list/)
          await waitForText(page, /\+48500100201/)
          // a reason with markup is text
          expect((await rows(page))[0]!.slice(0, 2)).toEqual(["+48500100201", "<b>asked</b> by phone"])

          await fill(page, "Phone number", "not a number")
          await press(page, "Add to the list")
          await waitForText(page, /phone_number/)
          expect(await page.$eval('[role="alert"]', (element) => element.textContent)).toMatch(/phone_number/)
          await fill(page, "Phone number", "+48 500 100 202")
          await fill(page, "Reason (optional)", "complaint")
          await press(page, "Add to the list")
          await waitForText(page, /\+48500100202 is on the list\./)
          await page.waitForFunction(
            () => (globalThis as any).document.querySelectorAll("tbody tr").length === 2
          )
          expect((await rows(page)).map((row) => row.slice(0, 2))).toEqual([
            ["+48500100202", "complaint"],
            ["+48500100201", "<b>asked</b> by phone"]
          ])
          expect(await inspect(page, "do-not-call")).toEqual([])

          await press(page, "Remove +48500100201")
          await page.waitForSelector("dialog[open]")
          expect(await page.$eval("dialog[open] h2", (h2) => h2.textContent)).toBe(
            "Take +48500100201 off the list?"
          )
          await press(page, "Take it off the list")
          await waitForText(page, /\+48500100201 was taken off the list/)
          await page.waitForFunction(
            () => (globalThis as any).document.querySelectorAll("tbody tr").length === 1
          )
          const listed = await api.get("/api/v1/do-not-call")
          expect(listed.items.map((entry: { phone_number: string }) => entry.phone_number)).toEqual([
            "+48500100202"
          ])
        }),
      90_000
    )

    it(
      "creates triggers, lists them by status in the address, and deletes one after asking",
      () =>
        withPage(context.browser, "triggers", async (page) => {
          const agent = await api.agent("Trigger agent")
          await signIn(page, context.url, apiKey, "campaigns")
          await press(page, "Triggers", "link")
          await waitForHeading(page, /^Triggers$/)
          await fill(page, "Name", "CRM follow-up")
          await page.select("#trigger-agent", agent.public_id)
          await fill(page, "Context (optional JSON)", "[1, 2]")
          await press(page, "Create the trigger")
          await waitForText(page, /The context must be a JSON object/)
          await fill(page, "Context (optional JSON)", '{"source": "crm"}')
          await press(page, "Create the trigger")
          await waitForText(page, /The trigger CRM follow-up was created\./)
          await fill(page, "Name", "Second line")
          await press(page, "Create the trigger")
          await waitForText(page, /The trigger Second line was created\./)
          await page.waitForFunction(
            () => (globalThis as any).document.querySelectorAll("tbody tr").length === 2
          )
          const shown = await rows(page)
          expect(shown.map((row) => [row[0], row[2], row[3], row[4]])).toEqual([
            ["Second line", "Trigger agent", "—", "active"],
            ["CRM follow-up", "Trigger agent", '{"source":"crm"}', "active"]
          ])
          const stored = await api.get("/api/v1/triggers")
          const followUp = stored.items.find((trigger: { name: string }) => trigger.name === "CRM follow-up")
          expect(followUp).toMatchObject({ initial_context: { source: "crm" }, status: "active" })
          expect(shown[1]![1]).toContain(followUp.trigger_id)
          // a call through a trigger: a number on the Do not call list is refused as the API says, another is placed
          await page.select("#call-trigger", followUp.trigger_id)
          const [refused, callable] = dialableNumbers(2)
          await api.post("/api/v1/do-not-call", { phone_number: refused })
          await fill(page, "Number to call", refused!)
          await press(page, "Place the call")
          await waitForText(page, /do_not_call/)
          await fill(page, "Number to call", callable!)
          await fill(page, "Context for this call (optional JSON)", '{"name": "Ada"}')
          await press(page, "Place the call")
          await waitForText(page, new RegExp(`Call to \\${callable} placed \\(queued\\): Run \\d+\\.`))
          const runId = Number(
            /Run (\d+)/.exec(await page.$eval("form [role=status]", (s) => s.textContent ?? ""))?.[1]
          )
          const run = await api.get(`/api/v1/runs?limit=1`)
          expect(run.items[0]).toMatchObject({
            workflow_run_id: runId,
            phone_number: callable,
            initial_context: { source: "crm", name: "Ada", phone_number: callable }
          })
          expect(await inspect(page, "triggers")).toEqual([])

          await press(page, "Delete CRM follow-up")
          await page.waitForSelector("dialog[open]")
          await press(page, "Delete the trigger")
          await waitForText(page, /The trigger CRM follow-up was deleted/)
          expect((await api.get(`/api/v1/triggers/${followUp.trigger_id}`)).status).toBe("archived")
          await page.select("#filter-status", "archived")
          await page.waitForFunction(() => (globalThis as any).location.search === "?status=archived")
          await page.waitForFunction(
            () => (globalThis as any).document.querySelectorAll("tbody tr").length === 1
          )
          expect((await rows(page))[0]![0]).toBe("CRM follow-up")
          expect(await address(page)).toBe("/console/triggers?status=archived")
        }),
      90_000
    )

    it(
      "quotes a Polish number against the balance, orders it, releases it after its quote, and requests one",
      () =>
        withPage(context.browser, "phone-numbers", async (page) => {
          const organizationId = Number(/organization (\d+)/.exec(context.server.output())?.[1])
          await admin("POST", "/admin/v1/phone-numbers", {
            number: "+48 22 765 43 21",
            number_type: "landline"
          })
          await signIn(page, context.url, apiKey, "phone-numbers")
          await waitForHeading(page, /Phone numbers/)
          await waitForText(page, /has no number yet/)
          const quote = await api.get("/api/v1/phone-numbers/polish/quote?number_type=landline")
          await page.select("#order-type", "landline")
          await press(page, "Get a price")
          await waitForText(page, /A landline number/)
          if (!quote.sufficient) {
            // a balance too low: the top-up needed, and no order
            await waitForText(page, new RegExp(`top up at least ${quote.top_up_pln.toFixed(2)} PLN`))
            expect(await page.$eval(".quote .actions button", (button) => (button as any).disabled)).toBe(
              true
            )
            expect(await inspect(page, "phone-numbers-short")).toEqual([])
            await admin("POST", `/admin/v1/organizations/${organizationId}/balance-top-ups`, {
              amount_pln: quote.top_up_pln + 500
            })
            await press(page, "Get a price")
            await waitForText(page, /The balance covers it/)
          }
          const price = (await api.get("/api/v1/phone-numbers/polish/quote?number_type=landline")).price_pln
          await press(page, `Order for ${price.toFixed(2)} PLN`)
          await waitForText(page, /\+48227654321 is yours/)
          await page.waitForFunction(
            () => (globalThis as any).document.querySelectorAll("tbody tr").length === 1
          )
          expect((await rows(page))[0]!.slice(0, 3)).toEqual(["+48227654321", "landline", "active"])

          const number = (await api.get("/api/v1/phone-numbers")).items[0]
          const release = await api.get(`/api/v1/phone-numbers/${number.id}/release-quote`)
          await press(page, "Release +48227654321")
          await page.waitForSelector("dialog[open]")
          const question = await page.$eval("dialog[open]", (dialog) => (dialog as any).innerText as string)
          expect(question).toContain(`Release fee\n${release.fee_pln.toFixed(2)} PLN`)
          expect(question).toContain(`Months charged\n${release.periods}`)
          expect(await inspect(page, "phone-numbers-release")).toEqual([])
          await press(page, "Keep the number")
          await page.waitForSelector("dialog[open]", { hidden: true })
          expect((await api.get(`/api/v1/phone-numbers/${number.id}`)).status).toBe("active")
          await press(page, "Release +48227654321")
          await press(page, `Release for ${release.fee_pln.toFixed(2)} PLN`)
          await waitForText(page, /\+48227654321 was released/)
          expect((await api.get(`/api/v1/phone-numbers/${number.id}`)).status).toBe("released")

          // no mobile number in the inventory: the order says so, and the demand is registered instead
          const mobile = (await api.get("/api/v1/phone-numbers/polish/quote?number_type=mobile")).price_pln
          await page.select("#order-type", "mobile")
          await press(page, "Get a price")
          await waitForText(page, /A mobile number/)
          await press(page, `Order for ${mobile.toFixed(2)} PLN`)
          await waitForText(page, /no_inventory/)
          await fill(page, "End user id", "42")
          await fill(page, "Note", "For the Warsaw office")
          await press(page, "Request a number")
          await waitForText(page, /consent/)
          await page
            .locator('::-p-aria([name="The end user consents to the number being registered for them"])')
            .click()
          await press(page, "Request a number")
          await waitForText(page, /is registered/)
          await page.waitForSelector('table[role="table"] caption::-p-text(Requests)')
          const requests = await api.get("/api/v1/phone-numbers/polish/requests")
          expect(requests.items[0]).toMatchObject({
            end_user_id: 42,
            note: "For the Warsaw office",
            consent: true
          })
          expect(await inspect(page, "phone-numbers")).toEqual([])
        }),
      90_000
    )
  }
)
