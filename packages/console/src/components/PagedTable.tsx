import { hrefOf, place } from "../routing/Location.js"
import { patchQuery } from "../routing/QueryState.js"
import { formatCount } from "../text/Formats.js"
import { type Column, DataTable } from "./DataTable.js"

export type { Column } from "./DataTable.js"

/** A page of a list as the API answers it. */
export interface Page<T> {
  readonly items: ReadonlyArray<T>
  readonly total_count: number
  readonly total_pages: number
  readonly page: number
}

/**
 * A table of one page of a list (a `DataTable`: cards on a narrow screen), and the controls for the other
 * pages.
 */
export const PagedTable = <T,>({
  caption,
  columns,
  page,
  rowKey,
  empty
}: {
  readonly caption: string
  readonly columns: ReadonlyArray<Column<T>>
  readonly page: Page<T>
  readonly rowKey: (item: T) => string | number
  /** What is said when the page has no rows. */
  readonly empty: string
}) => (
  <div class="paged-table">
    {page.items.length === 0 ? (
      <p class="empty">
        {page.page > 1 && page.total_count > 0 ? "This page is past the end of the list." : empty}
      </p>
    ) : (
      <DataTable caption={caption} columns={columns} rows={page.items} rowKey={rowKey} />
    )}
    <PageControls
      label={caption}
      page={page.page}
      totalPages={page.total_pages}
      totalCount={page.total_count}
    />
  </div>
)

/**
 * Links to the previous and next pages (the page is in the address: `?page=2`, so a page can be shared,
 * reloaded, and left with the back button), and where this page is in the list.
 */
export const PageControls = ({
  label,
  page,
  totalPages,
  totalCount
}: {
  readonly label: string
  readonly page: number
  readonly totalPages: number
  readonly totalCount: number
}) => {
  const here = place.value
  const to = (n: number) => hrefOf(here.path + patchQuery(here.query, { page: n }))
  const last = Math.max(1, totalPages)
  return (
    <nav class="pager" aria-label={`Pages of ${label.toLowerCase()}`}>
      {page > 1 ? (
        <a href={to(Math.min(page - 1, last))} rel="prev">
          Previous page
        </a>
      ) : (
        <span class="pager-edge">Previous page</span>
      )}
      <span class="pager-position">
        Page {formatCount(page)} of {formatCount(last)} · {formatCount(totalCount)} in all
      </span>
      {page < totalPages ? (
        <a href={to(page + 1)} rel="next">
          Next page
        </a>
      ) : (
        <span class="pager-edge">Next page</span>
      )}
    </nav>
  )
}
