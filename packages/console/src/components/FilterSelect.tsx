import { place, setQuery } from "../routing/Location.js"

/**
 * A filter of a list bound to the address's query (`?status=archived`): choosing a value changes the
 * address (a history entry; back undoes it) and sends the list to its first page; "All" removes it.
 */
export const FilterSelect = ({
  name,
  label,
  options,
  allLabel = "All"
}: {
  /** The query parameter, as the API names it. */
  readonly name: string
  readonly label: string
  readonly options: ReadonlyArray<{ readonly value: string; readonly label: string }>
  readonly allLabel?: string
}) => {
  const id = `filter-${name}`
  const current = place.value.query.get(name) ?? ""
  // a value the options do not hold (an agent past the first page of agents, an address typed by hand) is
  // still the filter the list is read with: shown as it is, never as "All"
  const unknown = current !== "" && !options.some((option) => option.value === current)
  return (
    <div class="filter">
      <label for={id}>{label}</label>
      <select id={id} value={current} onChange={(event) => setQuery({ [name]: event.currentTarget.value })}>
        <option value="">{allLabel}</option>
        {unknown ? <option value={current}>{current}</option> : null}
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  )
}
