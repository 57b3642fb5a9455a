import type { ComponentChildren } from "preact"
import { useEffect, useLayoutEffect, useRef } from "preact/hooks"
import { takeFocusRequest } from "../routing/Location.js"

/** Whether a heading was shown before in this page (the first one, on opening the page, leaves the focus be). */
let shownBefore = false

/** The console's name, after each screen's title in the window's title. */
export const productName = "Voice Agent Platform console"

/**
 * A screen's heading (its one `h1`) and the window's title. After a navigation the focus moves to it, so a
 * screen reader announces the new screen and Tab continues from its top.
 */
export const PageHeading = ({
  title,
  children
}: {
  readonly title: string
  /** Actions beside the heading (links, buttons). */
  readonly children?: ComponentChildren
}) => {
  const heading = useRef<HTMLHeadingElement>(null)
  useEffect(() => {
    document.title = `${title} · ${productName}`
  }, [title])
  // a layout effect: the focus moves in the task that shows the heading, never a frame after it (a
  // screen reader, a keypress or a test reading the focus in between would find it still on the link)
  useLayoutEffect(() => {
    // after a navigation; or when the focus was lost with what held it (a provisional heading, shown while
    // the screen's data loaded, replaced by this one)
    const lost = shownBefore && (document.activeElement === null || document.activeElement === document.body)
    shownBefore = true
    if (takeFocusRequest() || lost) heading.current?.focus()
  }, [])
  return (
    <div class="page-heading">
      <h1 ref={heading} tabIndex={-1}>
        {title}
      </h1>
      {children === undefined ? null : <div class="page-actions">{children}</div>}
    </div>
  )
}
