import { signal } from "@preact/signals"
import { consoleBase } from "../Mount.js"
import { patchQuery, type QueryPatch } from "./QueryState.js"

/** Where the console is: the screen's path relative to the console's base, and the query (the view's state). */
export interface Place {
  /** e.g. `agents/agent_x`; `""` for the overview. */
  readonly path: string
  readonly query: URLSearchParams
}

const read = (): Place => {
  const pathname = window.location.pathname
  const path = pathname.startsWith(consoleBase) ? pathname.slice(consoleBase.length) : ""
  return { path: path.replace(/\/+$/, ""), query: new URLSearchParams(window.location.search) }
}

/** The current place; screens re-render when it changes. */
export const place = signal<Place>(read())

let focusRequested = false

/** The address of a place (`agents?page=2` → `/console/agents?page=2`). */
export const hrefOf = (to: string): string => consoleBase + to

/**
 * Goes to a place with the History API (a new entry, so the back button returns; `replace` to not add
 * one). A new screen takes the focus on its heading; a query change (a filter, a page) leaves the focus
 * where it is.
 */
export const navigate = (to: string, options: { readonly replace?: boolean } = {}): void => {
  const before = place.value.path
  window.history[options.replace === true ? "replaceState" : "pushState"](null, "", hrefOf(to))
  const next = read()
  focusRequested = next.path !== before
  place.value = next
}

/** Changes the current view's query (filters, page): a new history entry, so back undoes it. */
export const setQuery = (patch: QueryPatch): void =>
  navigate(place.value.path + patchQuery(place.value.query, patch))

/** The next screen shown takes the focus on its heading (after signing in, as after a navigation). */
export const requestFocus = (): void => {
  focusRequested = true
}

/** Whether the screen being shown should move the focus to its heading (asked once per navigation). */
export const takeFocusRequest = (): boolean => {
  const requested = focusRequested
  focusRequested = false
  return requested
}

/** A click on a link to a console address, left button and no modifier: handled here, without a reload. */
const intercept = (event: MouseEvent) => {
  if (event.defaultPrevented || event.button !== 0) return
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return
  const anchor = (event.target as Element | null)?.closest?.("a")
  if (anchor === null || anchor === undefined || anchor.hasAttribute("download")) return
  if (anchor.target !== "" && anchor.target !== "_self") return
  const url = new URL(anchor.href, window.location.href)
  if (url.origin !== window.location.origin || !url.pathname.startsWith(consoleBase)) return
  // a link within the page (`#main`) is the browser's
  if (url.hash !== "" && url.pathname === window.location.pathname && url.search === window.location.search)
    return
  event.preventDefault()
  navigate(url.pathname.slice(consoleBase.length) + url.search)
}

/** Follows the browser's back and forward buttons and handles clicks on the console's links. */
export const listen = (): void => {
  window.addEventListener("popstate", () => {
    const next = read()
    focusRequested = next.path !== place.value.path
    place.value = next
  })
  document.addEventListener("click", intercept)
}
