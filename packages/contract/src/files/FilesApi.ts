import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Forbidden, NotFound } from "../errors/ApiErrors.js"

/**
 * The parts of a signed link. All optional on purpose: a link missing a part is a tampered link, refused
 * with the same 403 as any other, not a 422 that would describe what a valid one looks like.
 */
export const DownloadQuery = Schema.Struct({
  key: Schema.optionalWith(Schema.String, { exact: true }).annotations({ description: "The file" }),
  expires: Schema.optionalWith(Schema.String, { exact: true }).annotations({
    description: "When the link expires, in Unix seconds"
  }),
  signature: Schema.optionalWith(Schema.String, { exact: true }).annotations({
    description: "The link's signature"
  })
})

/** Signed, expiring download links of recordings and transcripts (no API key: the signature is the credential). */
export class FilesApi extends HttpApiGroup.make("files")
  .add(
    HttpApiEndpoint.get("download", "/files/download")
      .setUrlParams(DownloadQuery)
      .addSuccess(HttpApiSchema.Uint8Array({ contentType: "application/octet-stream" }))
      .addError(Forbidden)
      .addError(NotFound)
      .annotateContext(
        OpenApi.annotations({
          summary: "Download a file",
          description:
            "Follows a `download_url` handed out by the run endpoints (a recording is `audio/wav`, a raw transcript `text/plain`). Needs no API key: the link's signature is the credential. A tampered or expired link is 403; a file that was deleted since is 404. Ask the run endpoint for a fresh link when one has expired."
        })
      )
  )
  .prefix("/api/v1") {}
