import { describe, expect, it } from "@effect/vitest"
import { FastCheck } from "effect"
import { placeholders, render } from "../../src/templates/InitialContextTemplate.js"

const context = {
  name: "Anna",
  age: 42,
  vip: true,
  balance: 0,
  missing_value: null,
  customer: { name: "Jan Kowalski", address: { city: "Kraków" } },
  items: ["pizza", "cola"],
  "first name": "Ewa"
}

describe("InitialContextTemplate.render", () => {
  it("fills a placeholder with or without spaces inside the braces", () => {
    expect(render("Hello {{initial_context.name}}!", context)).toBe("Hello Anna!")
    expect(render("Hello {{ initial_context.name }}!", context)).toBe("Hello Anna!")
    expect(render("Hello {{\tinitial_context.name  }}!", context)).toBe("Hello Anna!")
  })

  it("follows dotted paths into nested objects and arrays", () => {
    expect(
      render("{{initial_context.customer.name}} from {{initial_context.customer.address.city}}", context)
    ).toBe("Jan Kowalski from Kraków")
    expect(render("{{initial_context.items.1}}", context)).toBe("cola")
  })

  it("renders numbers and booleans via String(), objects and arrays as JSON", () => {
    expect(
      render("{{initial_context.age}} {{initial_context.vip}} {{initial_context.balance}}", context)
    ).toBe("42 true 0")
    expect(render("{{initial_context.customer.address}}", context)).toBe('{"city":"Kraków"}')
    expect(render("{{initial_context.items}}", context)).toBe('["pizza","cola"]')
  })

  it("renders a missing key, null or undefined as the empty string so nothing is read aloud", () => {
    expect(render("Hi {{initial_context.nope}}!", context)).toBe("Hi !")
    expect(render("Hi {{initial_context.missing_value}}!", context)).toBe("Hi !")
    expect(render("Hi {{initial_context.undefined_value}}!", { undefined_value: undefined })).toBe("Hi !")
    expect(render("Hi {{initial_context.name.first}}!", context)).toBe("Hi !")
    expect(render("Hi {{initial_context.customer.phone.number}}!", context)).toBe("Hi !")
    expect(render("Hi {{initial_context.}}!", context)).toBe("Hi !")
  })

  it("does not reach the prototype chain", () => {
    expect(render("{{initial_context.constructor}}{{initial_context.name.length}}", context)).toBe("")
    expect(render("{{initial_context.__proto__}}", context)).toBe("")
  })

  it("reads a key containing a space", () => {
    expect(render("{{initial_context.first name}}", context)).toBe("Ewa")
  })

  it("leaves placeholders that are not initial_context paths untouched", () => {
    const template = "{{name}} {{ gathered_context.x }} {{initial_context}} {{Initial_Context.name}} {{}}"
    expect(render(template, context)).toBe(template)
  })

  it("renders in one pass: an inserted value containing a placeholder is not rendered again", () => {
    expect(render("{{initial_context.a}}", { a: "{{initial_context.b}}", b: "secret" })).toBe(
      "{{initial_context.b}}"
    )
  })

  it("inserts values literally, `$&` and `$1` included", () => {
    expect(render("{{initial_context.a}}", { a: "$& $1 $$ $`" })).toBe("$& $1 $$ $`")
  })

  it("leaves unbalanced braces as they are", () => {
    expect(
      render("{{initial_context.name} {initial_context.name}} {{{initial_context.name}}}", context)
    ).toBe("{{initial_context.name} {initial_context.name}} {Anna}")
  })
})

describe("InitialContextTemplate.placeholders", () => {
  it("lists the initial_context paths in first-use order, once each", () => {
    expect(
      placeholders(
        "{{ initial_context.customer.name }} {{initial_context.age}} {{other}} {{initial_context.customer.name}}"
      )
    ).toEqual(["customer.name", "age"])
    expect(placeholders("no placeholders")).toEqual([])
  })
})

const key = FastCheck.stringMatching(/^[a-z_][a-z0-9_]{0,10}$/)
const noBraces = FastCheck.string().filter((text) => !text.includes("{{"))

describe("InitialContextTemplate properties", () => {
  it.prop(
    "a template without `{{` is unchanged",
    [noBraces, FastCheck.dictionary(key, FastCheck.jsonValue())],
    ([template, ctx]) => {
      expect(render(template, ctx)).toBe(template)
      expect(placeholders(template)).toEqual([])
    }
  )

  it.prop(
    "a value containing braces is inserted literally",
    [key, FastCheck.string({ unit: FastCheck.constantFrom("{", "}", "a", " ", "$", ".") })],
    ([name, value]) => {
      expect(render(`<{{initial_context.${name}}}>`, { [name]: value })).toBe(`<${value}>`)
    }
  )

  it.prop(
    "rendering equals the template with each placeholder replaced by its value",
    [
      FastCheck.array(
        FastCheck.tuple(
          noBraces.filter((text) => !text.endsWith("{") && !text.includes("}}")),
          key
        ),
        { maxLength: 5 }
      ),
      FastCheck.dictionary(key, FastCheck.string())
    ],
    ([pieces, ctx]) => {
      const template = pieces.map(([text, name]) => `${text}{{ initial_context.${name} }}`).join("")
      const expected = pieces
        .map(([text, name]) => `${text}${Object.hasOwn(ctx, name) ? ctx[name] : ""}`)
        .join("")
      expect(render(template, ctx)).toBe(expected)
      expect(placeholders(template)).toEqual([...new Set(pieces.map(([, name]) => name))])
    }
  )
})
