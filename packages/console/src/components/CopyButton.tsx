import { useState } from "preact/hooks"

/**
 * Copies a text to the clipboard and says so (politely, for screen readers); where the browser refuses
 * (a page not served over HTTPS or from localhost), it says to copy by hand.
 */
export const CopyButton = ({ text, label = "Copy" }: { readonly text: string; readonly label?: string }) => {
  const [said, setSaid] = useState("")
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text)
      setSaid("Copied.")
    } catch {
      setSaid("The browser did not allow copying: select the text and copy it.")
    }
  }
  return (
    <span class="copy">
      <button type="button" class="secondary small" onClick={copy}>
        {label}
      </button>
      <span class="copy-status" role="status">
        {said}
      </span>
    </span>
  )
}
