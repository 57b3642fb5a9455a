import { setQuery } from "../../routing/Location.js"
import { dayOf } from "./RunFilters.js"

/** The text and date filters of the runs list: applied together, into the address. */
const fields = [
  { name: "phone_number", label: "Phone number", type: "text", hint: "e.g. +48500100200", max: 40 },
  { name: "disposition", label: "Disposition", type: "text", hint: "a disposition code", max: 100 },
  { name: "from", label: "First day", type: "date", hint: "", max: 10 },
  { name: "to", label: "Last day", type: "date", hint: "", max: 10 }
] as const

/**
 * A form for the filters that are typed rather than chosen: the phone number, the disposition, and the
 * first and last days. "Apply" writes them into the address (a history entry, the list back on its first
 * page); an emptied field removes its filter. The form is drawn anew when one of its own filters changes
 * in the address (back, forward), not when a list filter does, so text typed and not yet applied stays.
 */
export const RunSearch = ({ query }: { readonly query: URLSearchParams }) => (
  <form
    key={fields.map((field) => query.get(field.name) ?? "").join("\u0000")}
    class="run-search"
    aria-label="Search the runs"
    onSubmit={(event) => {
      event.preventDefault()
      const form = new FormData(event.currentTarget)
      const value = (name: string) => String(form.get(name) ?? "").trim()
      setQuery({
        phone_number: value("phone_number"),
        disposition: value("disposition"),
        from: dayOf(value("from")) ?? "",
        to: dayOf(value("to")) ?? ""
      })
    }}
  >
    {fields.map((field) => (
      <div class="field" key={field.name}>
        <label for={`search-${field.name}`}>{field.label}</label>
        {field.type === "date" ? (
          <input
            id={`search-${field.name}`}
            name={field.name}
            type="date"
            defaultValue={query.get(field.name) ?? ""}
          />
        ) : (
          <input
            id={`search-${field.name}`}
            name={field.name}
            type="text"
            defaultValue={query.get(field.name) ?? ""}
            placeholder={field.hint}
            // as long as the list reads from the address (RunFilters), so nothing typed is dropped unseen
            maxLength={field.max}
          />
        )}
      </div>
    ))}
    <p class="hint run-search-hint">Days are calendar days in UTC, the first and the last included.</p>
    <div class="run-search-actions">
      <button type="submit">Apply</button>
      {fields.some((field) => query.has(field.name)) ? (
        <button
          type="button"
          class="secondary"
          onClick={() => setQuery({ phone_number: "", disposition: "", from: "", to: "" })}
        >
          Clear
        </button>
      ) : null}
    </div>
  </form>
)
