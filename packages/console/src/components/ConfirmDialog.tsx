import type { ComponentChildren } from "preact"
import { useEffect, useId, useRef } from "preact/hooks"

/**
 * A modal question before an action that cannot be undone (the browser's `<dialog>`: the rest of the page is
 * inert, Escape cancels, the focus returns to where it was). The confirming button says what it does.
 */
export const ConfirmDialog = ({
  open,
  title,
  children,
  confirmLabel,
  onConfirm,
  onCancel,
  busy = false,
  cancelLabel = "Cancel"
}: {
  readonly open: boolean
  readonly title: string
  readonly children: ComponentChildren
  readonly confirmLabel: string
  readonly onConfirm: () => void
  readonly onCancel: () => void
  readonly busy?: boolean
  /** The button that closes the dialog without acting (e.g. "Keep the campaign" beside "Cancel the campaign"). */
  readonly cancelLabel?: string
}) => {
  const dialog = useRef<HTMLDialogElement>(null)
  const titleId = useId()
  useEffect(() => {
    const element = dialog.current
    if (element === null) return
    if (open && !element.open) element.showModal()
    if (!open && element.open) element.close()
  }, [open])
  return (
    <dialog
      ref={dialog}
      class="confirm-dialog"
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault()
        if (!busy) onCancel()
      }}
      // closed by the browser itself (a second Escape is not cancelable in Chromium): the state follows, so
      // the dialog can be opened again
      onClose={() => {
        if (open) onCancel()
      }}
    >
      <h2 id={titleId}>{title}</h2>
      <div class="dialog-body">{children}</div>
      <div class="dialog-actions">
        <button type="button" class="secondary" onClick={onCancel} disabled={busy}>
          {cancelLabel}
        </button>
        <button type="button" onClick={onConfirm} disabled={busy}>
          {confirmLabel}
        </button>
      </div>
    </dialog>
  )
}
