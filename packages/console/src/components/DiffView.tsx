import { lineDiff, withContext } from "../text/LineDiff.js"

/**
 * Two versions of a text compared line by line: added lines marked `+` (in `<ins>`), removed lines `−`
 * (in `<del>`), unchanged stretches shortened to a few lines around each change. Every line is text.
 */
export const DiffView = ({
  before,
  after,
  label
}: {
  readonly before: string
  readonly after: string
  /** What is compared, e.g. "Prompt: version 2 to version 3". */
  readonly label: string
}) => {
  const lines = lineDiff(before, after)
  const changed = lines.filter((line) => line.kind !== "same").length
  return (
    <figure class="diff">
      <figcaption>
        {label} · {changed === 0 ? "no change" : `${changed} line${changed === 1 ? "" : "s"} changed`}
      </figcaption>
      {changed === 0 ? null : (
        <div class="diff-lines" tabIndex={0} role="region" aria-label={label}>
          {withContext(lines).map((part, index) =>
            part.kind === "skipped" ? (
              <div key={index} class="diff-skipped">
                … {part.count} unchanged line{part.count === 1 ? "" : "s"} …
              </div>
            ) : part.kind === "added" ? (
              <ins key={index} class="diff-line diff-added">
                <span class="diff-mark" aria-hidden="true">
                  +
                </span>
                <span class="visually-hidden">Added: </span>
                {part.text}
              </ins>
            ) : part.kind === "removed" ? (
              <del key={index} class="diff-line diff-removed">
                <span class="diff-mark" aria-hidden="true">
                  −
                </span>
                <span class="visually-hidden">Removed: </span>
                {part.text}
              </del>
            ) : (
              <div key={index} class="diff-line diff-same">
                <span class="diff-mark" aria-hidden="true">
                  {" "}
                </span>
                {part.text}
              </div>
            )
          )}
        </div>
      )}
    </figure>
  )
}
