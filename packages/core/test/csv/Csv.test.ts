import { describe, expect, it } from "@effect/vitest"
import { Either, FastCheck } from "effect"
import * as CsvReader from "../../src/csv/CsvReader.js"
import * as CsvWriter from "../../src/csv/CsvWriter.js"

const limits: CsvReader.CsvLimits = { maxRecords: 1000, maxFields: 20, maxFieldLength: 200 }
const read = (text: string, bounds = limits) => Either.getOrThrow(CsvReader.parse(text, bounds))
const failure = (text: string, bounds = limits) =>
  Either.match(CsvReader.parse(text, bounds), { onLeft: (e) => e, onRight: () => undefined })

describe("CsvReader.parse", () => {
  it("reads records separated by CRLF, LF or CR, with or without a final line break", () => {
    expect(read("a,b\r\n1,2\r\n")).toEqual([
      ["a", "b"],
      ["1", "2"]
    ])
    expect(read("a,b\n1,2")).toEqual([
      ["a", "b"],
      ["1", "2"]
    ])
    expect(read("a,b\r1,2\r")).toEqual([
      ["a", "b"],
      ["1", "2"]
    ])
    expect(read("")).toEqual([])
    expect(read("a,,\n")).toEqual([["a", "", ""]])
  })

  it("unquotes quoted fields: commas, line breaks and doubled quotes inside", () => {
    expect(read('name,note\r\n"Kowalski, Jan","said ""hi""\r\nthen left"\r\n')).toEqual([
      ["name", "note"],
      ["Kowalski, Jan", 'said "hi"\r\nthen left']
    ])
    expect(read('""\n')).toEqual([[""]])
  })

  it("drops a leading byte-order mark", () => {
    expect(read("\uFEFFphone_number\n+48500000100\n")).toEqual([["phone_number"], ["+48500000100"]])
  })

  it("refuses malformed quoting with the record where it happened", () => {
    expect(failure('a\n"open')).toMatchObject({ record: 2, reason: "a quoted field is not closed" })
    expect(failure('a\nb"c\n')).toMatchObject({ record: 2, reason: "a quote inside an unquoted field" })
    expect(failure('"a"b\n')).toMatchObject({ record: 1, reason: "text after a closing quote" })
  })

  it("refuses documents past its bounds instead of cutting them", () => {
    expect(failure("a\nb\nc\n", { ...limits, maxRecords: 2 })?.reason).toContain("more than 2 records")
    expect(failure("a,b,c\n", { ...limits, maxFields: 2 })?.reason).toContain("more than 2 fields")
    expect(failure("abcdef\n", { ...limits, maxFieldLength: 5 })?.reason).toContain("longer than 5")
    expect(failure('"abcdef"\n', { ...limits, maxFieldLength: 5 })?.reason).toContain("longer than 5")
  })
})

describe("CsvWriter", () => {
  it("quotes only the fields that need it and ends every record with CRLF", () => {
    expect(CsvWriter.format([["a", "b,c", 'say "x"', "line\nbreak"]])).toBe(
      'a,"b,c","say ""x""","line\nbreak"\r\n'
    )
    expect(CsvWriter.format([[""]])).toBe('""\r\n')
  })

  const field = FastCheck.string({
    unit: FastCheck.constantFrom("a", "Ż", " ", ",", '"', "\r", "\n", "1"),
    maxLength: 12
  })
  const records = FastCheck.array(FastCheck.array(field, { minLength: 1, maxLength: 6 }), { maxLength: 20 })

  it.prop("reads back exactly what it wrote", [records], ([rows]) => {
    expect(read(CsvWriter.format(rows))).toEqual(rows)
  })

  it.prop(
    "reads back what it wrote after a byte-order mark, with LF line ends where unquoted",
    [records],
    ([rows]) => {
      const withLf = rows
        .map((r) => r.map(CsvWriter.field).join(","))
        .map((line, i) => (rows[i]!.length === 1 && rows[i]![0] === "" ? '""' : line))
      expect(read("\uFEFF" + withLf.join("\n"))).toEqual(rows)
    }
  )
})
