import { HttpServerResponse } from "@effect/platform"
import { BlobStore, DownloadLinks, OperationSpans } from "@voice-agent-platform/core"
import { Clock, Effect, Option } from "effect"
import { Api } from "@voice-agent-platform/contract/Api.js"
import { NotFound } from "@voice-agent-platform/contract/errors/ApiErrors.js"
import * as CoreErrors from "../errors/CoreErrors.js"
import * as CapturedGroups from "../direct/CapturedGroups.js"

/** The file's name for a download: the last segment of its key, reduced to characters safe in a header. */
const fileName = (key: string): string => {
  const last = key.slice(key.lastIndexOf("/") + 1).replace(/[^A-Za-z0-9._-]/g, "_")
  return last === "" ? "download" : last
}

/** Handlers of the files group. */
export const FilesHandlers = CapturedGroups.group(Api, "files", (handlers) =>
  Effect.gen(function* () {
    const blobs = yield* BlobStore.BlobStore
    const signingKey = yield* DownloadLinks.LinkSigningKey
    return handlers.handle(
      "download",
      OperationSpans.fn("Files.download")(function* ({ urlParams }) {
        const now = new Date(yield* Clock.currentTimeMillis)
        const key = yield* DownloadLinks.verify(urlParams, now).pipe(
          Effect.provideService(DownloadLinks.LinkSigningKey, signingKey),
          Effect.mapError(CoreErrors.toHttp)
        )
        // Only a holder of a valid link learns that the file is gone.
        const blob = yield* blobs.get(key)
        if (Option.isNone(blob)) {
          return yield* Effect.fail(new NotFound({ detail: "The file is no longer available" }))
        }
        return HttpServerResponse.uint8Array(blob.value.bytes, {
          contentType: blob.value.content_type,
          headers: {
            "cache-control": "private, no-store",
            "content-disposition": `attachment; filename="${fileName(key)}"`,
            "x-content-type-options": "nosniff"
          }
        })
      })
    )
  })
)
