import { useEffect, useRef } from "preact/hooks"

/**
 * A reference whose element takes the focus each time `when` turns true: where a keyboard user continues
 * after the control they used went away (a revoked key's button, a hidden secret, a closed form), instead
 * of the focus falling to the page's start. The element needs `tabIndex={-1}` unless it is a control.
 */
export const useFocusWhen = <T extends HTMLElement>(when: boolean) => {
  const element = useRef<T>(null)
  const before = useRef(when)
  useEffect(() => {
    const turned = when && !before.current
    before.current = when
    if (!turned) return
    // after the frame: a closing dialog gives the focus back to its opener first, which this then moves on
    const frame = requestAnimationFrame(() => element.current?.focus())
    return () => cancelAnimationFrame(frame)
  }, [when])
  return element
}
