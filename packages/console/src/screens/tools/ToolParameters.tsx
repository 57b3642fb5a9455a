import { type ParameterRow, type ParameterType, parameterTypes } from "./ToolDraft.js"

/** The API's bound on a tool's parameters. */
const maxParameters = 50

/** The parameters the model passes to a tool, edited as rows (name, type, what it is, required). */
export const ToolParameters = ({
  rows,
  onChange
}: {
  readonly rows: ReadonlyArray<ParameterRow>
  readonly onChange: (rows: ReadonlyArray<ParameterRow>) => void
}) => {
  const change = (key: number, patch: Partial<ParameterRow>) =>
    onChange(rows.map((row) => (row.key === key ? { ...row, ...patch } : row)))
  const add = () =>
    onChange([
      ...rows,
      {
        key: rows.reduce((max, row) => Math.max(max, row.key), -1) + 1,
        name: "",
        type: "string",
        description: "",
        required: true
      }
    ])
  return (
    <fieldset>
      <legend>Parameters the agent passes</legend>
      {rows.length === 0 ? <p class="empty">No parameters.</p> : null}
      {rows.map((row, index) => (
        <div class="code-row" key={row.key}>
          <div class="field">
            <label for={`parameter-${row.key}`}>Parameter {index + 1}</label>
            <input
              id={`parameter-${row.key}`}
              value={row.name}
              maxLength={100}
              onInput={(event) => change(row.key, { name: event.currentTarget.value })}
            />
          </div>
          <div class="field">
            <label for={`parameter-type-${row.key}`}>Type of parameter {index + 1}</label>
            <select
              id={`parameter-type-${row.key}`}
              value={row.type}
              onChange={(event) => change(row.key, { type: event.currentTarget.value as ParameterType })}
            >
              {parameterTypes.map((type) => (
                <option key={type} value={type}>
                  {type}
                </option>
              ))}
            </select>
          </div>
          <div class="field grow">
            <label for={`parameter-description-${row.key}`}>What parameter {index + 1} is</label>
            <input
              id={`parameter-description-${row.key}`}
              value={row.description}
              onInput={(event) => change(row.key, { description: event.currentTarget.value })}
            />
          </div>
          <label class="check">
            <input
              type="checkbox"
              checked={row.required}
              onChange={(event) => change(row.key, { required: event.currentTarget.checked })}
            />{" "}
            Required
          </label>
          <button
            type="button"
            class="secondary small"
            onClick={() => onChange(rows.filter((other) => other.key !== row.key))}
          >
            Remove parameter {index + 1}
          </button>
        </div>
      ))}
      {rows.length < maxParameters ? (
        <button type="button" class="secondary small" onClick={add}>
          Add a parameter
        </button>
      ) : null}
    </fieldset>
  )
}
