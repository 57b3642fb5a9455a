import type { ComponentChildren } from "preact"
import { hrefOf, place } from "./Location.js"

/**
 * A link to a console screen (`to` relative to the console, with its query if any): a real `<a href>`, so it
 * opens in a new tab and is read as a link; a plain click is handled without a reload (`Location.listen`).
 */
export const Link = ({
  to,
  children,
  class: className
}: {
  readonly to: string
  readonly children: ComponentChildren
  readonly class?: string
}) => {
  const current = place.value.path === to.replace(/\?.*$/s, "")
  return (
    <a href={hrefOf(to)} class={className} aria-current={current ? "page" : undefined}>
      {children}
    </a>
  )
}
