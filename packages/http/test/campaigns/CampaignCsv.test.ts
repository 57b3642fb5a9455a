import { describe, expect, it } from "@effect/vitest"
import type { Campaign } from "@voice-agent-platform/core"
import { FastCheck } from "effect"
import * as CampaignResponses from "../../src/campaigns/CampaignResponses.js"

/** A reported contact whose last run ended with `disposition`. */
const reported = (disposition: string): Campaign.ReportedContact =>
  ({
    contact: {
      id: 7,
      campaign_id: 3,
      organization_id: 1,
      phone_number: "+48500100200",
      initial_context: {},
      status: "completed",
      attempts: 1,
      last_run_id: 11,
      outcome: null,
      next_attempt_at: null,
      lease_owner: null,
      lease_expires_at: null,
      created_at: new Date("2026-02-10T11:00:00.000Z")
    },
    run: { status: "completed", disposition, duration_seconds: 12, gathered_context: { note: "=1+1" } }
  }) as unknown as Campaign.ReportedContact

describe("the campaign report as CSV", () => {
  it("guards text a spreadsheet would run as a formula, and leaves numbers and phone numbers alone", () => {
    const line = CampaignResponses.csvRecord(reported('=HYPERLINK("http://evil.example","x")'))
    expect(line).toContain(`"'=HYPERLINK(""http://evil.example"",""x"")"`)
    expect(line.startsWith("7,+48500100200,completed,1,11,completed,")).toBe(true)
    for (const [cell, safe] of [
      ["@SUM(A1)", "'@SUM(A1)"],
      ["-2+3", "'-2+3"],
      ["+cmd|' /C calc'!A0", "'+cmd|' /C calc'!A0"],
      ["\tx", "'\tx"],
      ["-15", "-15"],
      ["+48500100200", "+48500100200"],
      ["interested", "interested"]
    ] as const) {
      expect(CampaignResponses.spreadsheetSafe(cell)).toBe(safe)
    }
  })

  it.prop(
    "a guarded cell never starts a formula and only ever gains one leading quote",
    [FastCheck.string()],
    ([cell]) => {
      const safe = CampaignResponses.spreadsheetSafe(cell)
      expect(safe === cell || safe === `'${cell}`).toBe(true)
      expect(/^[=@\t\r]/.test(safe)).toBe(false)
      if (/^[+-]/.test(safe)) expect(/^[+-]?\d+(\.\d+)?$/.test(safe)).toBe(true)
    }
  )
})
