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

const apiKey = `vap_${"C".repeat(40)}`
const injected = "<img src=x onerror=alert(1)>"

/** The conversation as shown: each line's text. */
const conversation = (page: Page) =>
  page.$$eval(".chat-log li", (lines) =>
    lines.map((line) => (line as any).innerText.replace(/\s+/g, " ").trim() as string)
  )

/** Waits until the conversation has `count` lines and no reply is being written. */
const waitForLines = (page: Page, count: number) =>
  page.waitForFunction(
    (count) =>
      (globalThis as any).document.querySelectorAll(".chat-log li").length >= count &&
      (globalThis as any).document.querySelector(".chat-writing") === null,
    { timeout: 20_000 },
    count
  )

describe.skipIf(chromium === undefined)(
  "the console in a browser: talking to an agent, its suggestions, user data as text",
  () => {
    let context: Awaited<ReturnType<typeof open>>
    let api: ReturnType<typeof apiOf>
    beforeAll(async () => {
      context = await open(apiKey)
      api = apiOf(context.server.port, apiKey)
    }, 120_000)
    afterAll(async () => {
      await context?.close()
    }, 60_000)

    it("talks to the agent: replies stream in, its tools are noted, a goodbye or End ends the chat", () =>
      withPage(context.browser, "chat", async (page) => {
        const preview = await api.post("/api/v1/agent-templates/analyze-script", { script: clinicScript })
        const agent = await api.post("/api/v1/agents/from-script", { ...preview, agent_name: "Ada" })
        const hangUp = await api.post("/api/v1/tools", {
          name: "End call",
          definition: { type: "end_call", config: {} }
        })
        await api.patch(`/api/v1/agents/${agent.public_id}`, { tools: [hangUp.tool_uuid] })

        // the replies come as server-sent events
        const streamed: Array<string> = []
        page.on("response", (response) => {
          if (/\/conversations\/\d+\/messages$/.test(response.url()))
            streamed.push(response.headers()["content-type"] ?? "")
        })
        await signIn(page, context.url, apiKey, `agents/${agent.public_id}`)
        // the agent's page names its tools
        await waitForText(page, /Tools\s+End call \(end call\)/)
        await press(page, "Talk to this agent", "link")
        expect(await waitForHeading(page, /Talk to Ada/)).toBe("Talk to Ada")
        await press(page, "Start a chat")
        await waitForLines(page, 1)
        expect(await conversation(page)).toEqual([
          "Ada Hi, this is Ada from Smile Clinic. Do you have a minute?"
        ])

        // the embedded model answers from the script's questions and answers
        await fill(page, "Your message", "Do you have parking?")
        await page.keyboard.press("Enter")
        await waitForLines(page, 3)
        const [, question, answer] = await conversation(page)
        expect(question).toBe("You Do you have parking?")
        expect(answer).toMatch(/^Ada .*Yes, free for patients\./)
        expect(
          await page.$eval("#chat-message", (input) => input === (globalThis as any).document.activeElement)
        ).toBe(true)
        expect(await inspect(page, "chat")).toEqual([])

        await fill(page, "Your message", "Thank you, goodbye!")
        await page.keyboard.press("Enter")
        await waitForText(page, /The chat has ended/)
        expect(streamed).toHaveLength(3)
        expect(streamed.every((type) => type.startsWith("text/event-stream"))).toBe(true)
        expect(
          (await conversation(page)).some((line) => line.startsWith("Ran the tool End call: done"))
        ).toBe(true)
        const runText = await page.$eval(".chat > p.muted", (p) => p.textContent ?? "")
        const runId = Number(/Run (\d+)/.exec(runText)?.[1])
        const run = await api.get(`/api/v1/agents/${agent.public_id}/conversations/${runId}`)
        expect(run).toMatchObject({ mode: "chat", status: "completed" })
        expect(await inspect(page, "chat-ended")).toEqual([])

        // a new chat, ended with the button
        await press(page, "Start a new chat")
        await waitForLines(page, 1)
        await press(page, "End the chat")
        await waitForText(page, /The chat has ended/)
        const runs = await api.get(`/api/v1/agents/${agent.public_id}/conversations`)
        expect(runs.items.map((r: { status: string }) => r.status)).toEqual(["completed", "completed"])

        // the overview lists the chats among the recent runs
        await press(page, "Overview", "link")
        await waitForText(page, /Recent runs/)
        await page.waitForSelector("table")
        expect(await page.$$eval("table tbody tr", (rows) => rows.length)).toBe(2)
        expect(await inspect(page, "overview-runs")).toEqual([])
      }))

    it("shows how accepting a suggestion changes the prompt before it is accepted; dismisses another", () =>
      withPage(context.browser, "improvements", async (page) => {
        const agent = await api.agent("Suggested agent", { prompt: "You are Ada." })
        const suggestion = await api.post(`/api/v1/agents/${agent.public_id}/improvements`, {
          text: "Say the clinic's address when asked where it is.",
          rationale: "A caller asked twice."
        })
        await api.post(`/api/v1/agents/${agent.public_id}/improvements`, { text: "Speak more slowly." })
        await signIn(page, context.url, apiKey, `agents/${agent.public_id}`)
        await press(page, "Improvement suggestions", "link")
        await waitForHeading(page, /Improvement suggestions for Suggested agent/)
        await waitForText(page, /Speak more slowly\./)
        expect(await inspect(page, "improvements")).toEqual([])

        const reviews = await page.$$('::-p-aria([name="Review and accept"][role="button"])')
        const rows = await page.$$eval("tbody tr", (rows) => rows.map((row) => row.textContent ?? ""))
        await reviews[rows.findIndex((row) => row.includes("address"))]!.click()
        await page.waitForSelector("dialog[open]")
        const lines = await page.$$eval("dialog .diff-line", (lines) => lines.map((line) => line.textContent))
        expect(lines).toEqual([
          " You are Ada.",
          "+Added: ",
          "+Added: Say the clinic's address when asked where it is."
        ])
        expect(await inspect(page, "improvement-accept")).toEqual([])
        await press(page, "Accept and make a new version")
        await page.waitForSelector("dialog[open]", { hidden: true })
        await waitForText(page, /Accepted: the prompt has a new version\./)
        expect((await api.get(`/api/v1/agents/${agent.public_id}`)).workflow_definition.system_prompt).toBe(
          "You are Ada.\n\nSay the clinic's address when asked where it is."
        )

        await press(page, "Dismiss")
        await waitForText(page, /Dismissed\./)
        const decided = await api.get(`/api/v1/agents/${agent.public_id}/improvements`)
        expect(decided.items.map((i: { status: string }) => i.status).sort()).toEqual([
          "accepted",
          "dismissed"
        ])
        expect(suggestion.status).toBe("pending")

        // the status filter is in the address
        await page.select("#filter-status", "accepted")
        await page.waitForFunction(() => (globalThis as any).location.search === "?status=accepted")
        await page.waitForFunction(
          () => (globalThis as any).document.querySelectorAll("tbody tr").length === 1
        )
        await press(page, "Generate suggestions")
        await page.waitForFunction(
          () => ((globalThis as any).document.querySelector(".status-line")?.textContent ?? "") !== ""
        )
      }))

    it(`shows names, prompts and replies holding ${injected} as text, and runs nothing`, () =>
      withPage(context.browser, "user-data", async (page) => {
        const agent = await api.agent(injected, {
          greeting: `Hello ${injected}`,
          prompt: `Prompt ${injected}`
        })
        await api.post(`/api/v1/agents/${agent.public_id}/improvements`, { text: `Add ${injected}` })
        await signIn(page, context.url, apiKey, "agents")
        await waitForText(page, /<img src=x onerror=alert\(1\)>/)
        await page.locator(`::-p-aria([name="${injected}"][role="link"])`).click()
        expect(await waitForHeading(page, /<img/)).toBe(injected)
        await waitForText(page, /Prompt <img src=x onerror=alert\(1\)>/)
        await press(page, "Improvement suggestions", "link")
        await waitForText(page, /Add <img src=x onerror=alert\(1\)>/)
        await page.goto(`${context.url}/agents/${agent.public_id}/chat`, { waitUntil: "load" })
        await press(page, "Start a chat")
        await waitForLines(page, 1)
        expect(await conversation(page)).toEqual([`${injected} Hello ${injected}`])
        // no element was made from the text, and nothing ran (withPage fails on any dialog or script error)
        expect(await page.$$eval("img", (images) => images.length)).toBe(0)
        expect(await page.evaluate(() => (globalThis as any).document.title)).toBe(
          `Talk to ${injected} · Voice Agent Platform console`
        )
      }))
  }
)
