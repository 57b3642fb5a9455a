import { describe, expect, it } from "@effect/vitest"
import { Either, FastCheck } from "effect"
import * as ContactImport from "../../src/campaigns/ContactImport.js"
import * as CsvWriter from "../../src/csv/CsvWriter.js"

const rows = (text: string) => Either.getOrThrow(ContactImport.rowsOfCsv(text))
const refusal = (text: string) =>
  Either.match(ContactImport.rowsOfCsv(text), { onLeft: (e) => e.detail, onRight: () => undefined })

describe("ContactImport.rowsOfCsv", () => {
  it("takes phone_number from its column and every other column into initial_context", () => {
    expect(
      rows("\uFEFFname,phone_number,city\r\nJan,+48 500 000 100,Kraków\r\n\r\nEwa,+48500000101,\r\n")
    ).toEqual([
      { row: 1, phone_number: "+48 500 000 100", initial_context: { name: "Jan", city: "Kraków" } },
      { row: 2, phone_number: "+48500000101", initial_context: { name: "Ewa", city: "" } }
    ])
  })

  it("keeps a column named __proto__ as a key of initial_context, like any other", () => {
    const [row] = rows("__proto__,phone_number,constructor\r\nx,+48500000100,y\r\n")
    expect(Object.keys(row!.initial_context)).toEqual(["__proto__", "constructor"])
    expect(JSON.stringify(row!.initial_context)).toBe('{"__proto__":"x","constructor":"y"}')
    expect(Object.getPrototypeOf(row!.initial_context)).toBe(Object.prototype)
  })

  it("refuses the whole file when it is malformed, has no phone_number column or ragged records", () => {
    expect(refusal("")).toBe("The CSV file is empty")
    expect(refusal("name\nJan\n")).toBe("The CSV header has no phone_number column")
    expect(refusal("phone_number,a,a\n")).toContain('column "a" twice')
    expect(refusal('phone_number,a\n+48500000100,"x\n')).toContain("malformed at record 2")
    expect(refusal("phone_number,a\n+48500000100,x\n+48500000101\n")).toContain("record 3: 1 fields")
  })

  it("refuses more rows than one request may add", () => {
    const big = "phone_number\n" + "+48500000100\n".repeat(ContactImport.maxContactsPerRequest + 1)
    expect(refusal(big)).toContain("more than")
  })
})

describe("ContactImport.plan", () => {
  it("normalises to E.164, keeps the first of each number, rejects invalid rows with their number", () => {
    const plan = ContactImport.plan([
      { row: 1, phone_number: "+48 500 000 100", initial_context: { a: 1 } },
      { row: 2, phone_number: "not a number", initial_context: {} },
      { row: 3, phone_number: "+48500000100", initial_context: {} },
      { row: 4, phone_number: "+48500000101", initial_context: { big: "x".repeat(9000) } }
    ])
    expect(plan.accepted).toEqual([
      { row: 1, phone_number: "+48500000100", initial_context: { a: 1, phone_number: "+48500000100" } }
    ])
    expect(plan.duplicates).toBe(1)
    expect(plan.rejected.map((r) => [r.row, r.phone_number])).toEqual([
      [2, "not a number"],
      [4, "+48500000101"]
    ])
    expect(plan.rejected[0]!.detail).toContain("valid phone number")
  })

  const digits = FastCheck.integer({ min: 0, max: 50 })
  it.prop(
    "accounts for every row once: accepted + duplicates + rejected = rows, accepted numbers distinct",
    [
      FastCheck.array(
        FastCheck.oneof(
          digits.map((n) => `+4850000${String(100 + n)}0`),
          FastCheck.constant("junk")
        ),
        { maxLength: 60 }
      )
    ],
    ([numbers]) => {
      const plan = ContactImport.plan(
        numbers.map((phone_number, i) => ({ row: i + 1, phone_number, initial_context: {} }))
      )
      expect(plan.accepted.length + plan.duplicates + plan.rejected.length).toBe(numbers.length)
      expect(new Set(plan.accepted.map((a) => a.phone_number)).size).toBe(plan.accepted.length)
    }
  )

  it.prop(
    "reads back the contacts a CSV writer wrote",
    [
      FastCheck.array(FastCheck.tuple(digits, FastCheck.string({ maxLength: 10 })), {
        minLength: 1,
        maxLength: 30
      })
    ],
    ([contacts]) => {
      const text = CsvWriter.format([
        ["phone_number", "note"],
        ...contacts.map(([n, note]) => [`+48500000${String(100 + n)}`, note])
      ])
      const read = rows(text).filter((r) => !(r.phone_number === "" && r.initial_context.note === ""))
      expect(read.map((r) => r.initial_context.note)).toEqual(contacts.map(([, note]) => note))
    }
  )
})
