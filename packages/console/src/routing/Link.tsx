import type { ComponentChildren } from "preact"
import { hrefOf, place } from "./Location.js"

/**
 * A link to a console screen (`to` relative to the console, with its query if any): a real `<a href>`, so it
 * opens in a new tab and is read as a link; a plain click is handled without a reload (`Location.listen`).
 */
const sameQuery = (query: string, other: URLSearchParams): boolean => {
  const a = new URLSearchParams(query)
  const b = new URLSearchParams(other)
  a.sort()
  b.sort()
  return a.toString() === b.toString()
}

export const Link = ({
  to,
  children,
  class: className
}: {
  readonly to: string
  readonly children: ComponentChildren
  readonly class?: string
}) => {
  // the current page: the same screen, and the same query when the link names one (a month, a page)
  const [path, query] = to.split("?", 2) as [string, string | undefined]
  const current = place.value.path === path && (query === undefined || sameQuery(query, place.value.query))
  return (
    <a href={hrefOf(to)} class={className} aria-current={current ? "page" : undefined}>
      {children}
    </a>
  )
}
