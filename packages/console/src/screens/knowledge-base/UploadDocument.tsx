import { useEffect, useRef, useState } from "preact/hooks"
import { ErrorNotice } from "../../components/Feedback.js"
import { useAction } from "../../data/useAction.js"
import * as Upload from "../../api/Upload.js"
import { uploadOptions } from "../../session/Session.js"
import { formatBytes, percentOf } from "./DocumentFacts.js"

const upload = Upload.make(uploadOptions)

/** The API's bound on a document (10 MiB); a larger file is refused here before it is sent. */
const maxBytes = 10 * 1024 * 1024

/**
 * Uploads a document (`multipart/form-data`, part `file`, and an optional `source_url`), its progress shown
 * in a `<progress>` as it is sent; the API's reason when it refuses it.
 */
export const UploadDocument = ({ onUploaded }: { readonly onUploaded: () => void }) => {
  const input = useRef<HTMLInputElement>(null)
  const [sourceUrl, setSourceUrl] = useState("")
  const [progress, setProgress] = useState<{ name: string; sent: number; total: number | undefined }>()
  const [done, setDone] = useState<string | undefined>(undefined)
  const send = useAction()
  // an upload stops when the screen is left (up to 10 MB would otherwise go on being sent)
  const leaving = useRef(new AbortController())
  useEffect(() => () => leaving.current.abort(), [])
  const submit = (event: Event) => {
    event.preventDefault()
    setDone(undefined)
    const file = input.current?.files?.[0]
    return send.run(async () => {
      if (file === undefined) throw new Error("Choose a file first.")
      if (file.size > maxBytes)
        throw new Error(`${file.name} is ${formatBytes(file.size)}: a document is at most 10 MB.`)
      const form = new FormData()
      form.append("file", file, file.name)
      if (sourceUrl.trim() !== "") form.append("source_url", sourceUrl.trim())
      setProgress({ name: file.name, sent: 0, total: file.size })
      // the bar shows what the browser reports sent, and nothing else (its last report is the whole file)
      await upload(
        "/api/v1/knowledge-base/documents",
        form,
        ({ sent, total }) => setProgress({ name: file.name, sent, total }),
        leaving.current.signal
      )
      setDone(`${file.name} is uploaded; it is read in the background, and listed below.`)
      if (input.current !== null) input.current.value = ""
      setSourceUrl("")
      onUploaded()
    })
  }
  const percent = progress === undefined ? undefined : percentOf(progress.sent, progress.total)
  return (
    <section aria-labelledby="upload-heading">
      <h2 id="upload-heading">Upload a document</h2>
      <form onSubmit={submit} class="stacked">
        <label for="document-file">Document</label>
        <input id="document-file" type="file" ref={input} aria-describedby="document-file-hint" />
        <p id="document-file-hint" class="hint">
          Plain text, Markdown, CSV, JSON or HTML, in UTF-8, at most 10 MB. It is split into chunks that
          agents given this document read from during their conversations.
        </p>
        <label for="document-source">Where it comes from (optional)</label>
        <input
          id="document-source"
          type="url"
          value={sourceUrl}
          aria-describedby="document-source-hint"
          onInput={(event) => setSourceUrl(event.currentTarget.value)}
        />
        <p id="document-source-hint" class="hint">
          An http(s) address, kept with the document.
        </p>
        {progress === undefined ? null : (
          <div class="upload-progress">
            <label for="upload-progress">
              {send.busy ? "Uploading" : "Uploaded"} {progress.name}
              {percent === undefined ? "" : `: ${percent}%`}
            </label>
            {/* no value while the size is unknown: the bar says "under way", not "done" */}
            <progress
              id="upload-progress"
              max={progress.total ?? 1}
              value={progress.total === undefined ? undefined : progress.sent}
            />
          </div>
        )}
        <p class="status-line" role="status">
          {done ?? ""}
        </p>
        {send.error === undefined ? null : <ErrorNotice error={`Not uploaded: ${send.error}`} />}
        <div class="actions">
          <button type="submit" disabled={send.busy}>
            {send.busy ? "Uploading…" : "Upload the document"}
          </button>
        </div>
      </form>
    </section>
  )
}
