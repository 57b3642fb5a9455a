import type { ComponentChildren } from "preact"
import type { Load } from "../data/useLoad.js"

/** An error, announced to screen readers as it appears (`role="alert"`). */
export const ErrorNotice = ({ error }: { readonly error: Error | string }) => (
  <p class="error-notice" role="alert">
    {typeof error === "string" ? error : error.message}
  </p>
)

/** Something is on its way; announced politely. */
export const LoadingNotice = ({ label = "Loading…" }: { readonly label?: string }) => (
  <p class="loading-notice" role="status">
    {label}
  </p>
)

/**
 * A load's data given to `children` once it is there; the loading state or the error before that. Data of
 * inputs that just changed stays in place (nothing the person is on is taken away) under an announced
 * "Updating…" until the new data is there.
 */
export const Loaded = <T,>({
  load,
  label,
  children
}: {
  readonly load: Load<T>
  readonly label?: string
  readonly children: (data: T) => ComponentChildren
}) => {
  if (load.state === "loading") return <LoadingNotice {...(label === undefined ? {} : { label })} />
  if (load.state === "failed") return <ErrorNotice error={load.error} />
  // the notice's place is kept when absent (null), so the data's elements are never made again
  return (
    <>
      {load.stale ? <LoadingNotice label="Updating…" /> : null}
      {children(load.data)}
    </>
  )
}
