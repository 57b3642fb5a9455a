import type { ComponentChildren } from "preact"

/** A column: its header and what a row shows in it (text or elements; never markup from data). */
export interface Column<T> {
  readonly header: string
  readonly cell: (item: T) => ComponentChildren
}

/**
 * A table with its caption and column headers. On a wide screen it is a table that scrolls sideways when it
 * must (the region is reachable with Tab, so a keyboard can scroll it); on a narrow one each row is a card,
 * each value under its column's name. The roles are given explicitly, so assistive technology still reads a
 * table when the cards' layout changes the elements' display.
 */
export const DataTable = <T,>({
  caption,
  columns,
  rows,
  rowKey
}: {
  readonly caption: string
  readonly columns: ReadonlyArray<Column<T>>
  readonly rows: ReadonlyArray<T>
  readonly rowKey: (item: T) => string | number
}) => (
  <div class="table-scroll" tabIndex={0} role="region" aria-label={caption}>
    <table class="data-table" role="table">
      <caption>{caption}</caption>
      <thead role="rowgroup">
        <tr role="row">
          {columns.map((column) => (
            <th scope="col" role="columnheader" key={column.header}>
              {column.header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody role="rowgroup">
        {rows.map((item) => (
          <tr role="row" key={rowKey(item)}>
            {columns.map((column) => (
              <td role="cell" key={column.header} data-label={column.header}>
                <div class="cell-value">{column.cell(item)}</div>
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  </div>
)
