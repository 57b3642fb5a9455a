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

/** A load's data given to `children` once it is there; the loading state or the error before that. */
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
  return <>{children(load.data)}</>
}
