import { ApiError, messageOf } from "./ApiErrors.js"
import { urlOf } from "./Client.js"

/** How far an upload has come: bytes sent of the total (the total unknown until the browser knows it). */
export interface UploadProgress {
  readonly sent: number
  readonly total: number | undefined
}

/** How the uploader reaches the API (as the client: the same root, key and 401 handling). */
export interface UploadOptions {
  readonly root: string
  readonly apiKey: () => string | undefined
  readonly onUnauthorized?: (message: string) => void
}

/**
 * A `multipart/form-data` POST through `XMLHttpRequest`, whose upload reports its progress (fetch does not):
 * the key in `X-API-Key`, no cookie; the API's JSON answer, or an `ApiError` with its reason.
 */
export const make =
  (options: UploadOptions) =>
  (
    path: string,
    form: FormData,
    onProgress: (progress: UploadProgress) => void,
    signal?: AbortSignal
  ): Promise<unknown> =>
    new Promise((resolve, reject) => {
      const request = new XMLHttpRequest()
      request.open("POST", urlOf(options.root, path, undefined, undefined))
      request.withCredentials = false
      request.setRequestHeader("accept", "application/json")
      const key = options.apiKey()
      if (key !== undefined) request.setRequestHeader("x-api-key", key)
      request.upload.onprogress = (event) =>
        onProgress({ sent: event.loaded, total: event.lengthComputable ? event.total : undefined })
      request.onload = () => {
        const body = parsed(request)
        if (request.status >= 200 && request.status < 300) return resolve(body)
        const error = new ApiError(request.status, messageOf(request.status, body))
        if (request.status === 401) options.onUnauthorized?.(error.message)
        reject(error)
      }
      request.onerror = () =>
        reject(new ApiError(0, "The server could not be reached. Check the connection and try again."))
      request.onabort = () => reject(new DOMException("The upload was cancelled.", "AbortError"))
      signal?.addEventListener("abort", () => request.abort(), { once: true })
      request.send(form)
    })

const parsed = (request: XMLHttpRequest): unknown => {
  const text = request.responseText
  if (text === "") return undefined
  if ((request.getResponseHeader("content-type") ?? "").includes("json")) {
    try {
      return JSON.parse(text)
    } catch {
      return text
    }
  }
  return text
}
