import { Schema } from "effect"

/** A configured secret is shorter than `minimumSecretBytes`. */
export class LinkSigningSecretTooShort extends Schema.TaggedError<LinkSigningSecretTooShort>()(
  "LinkSigningSecretTooShort",
  { bytes: Schema.Number, minimum: Schema.Number }
) {
  override get message(): string {
    return `The link signing secret has ${this.bytes} bytes; it needs at least ${this.minimum}`
  }
}

/** Why a link was refused; the API answers the same 403 for all of them, so the reason is for logs only. */
export class DownloadLinkRefused extends Schema.TaggedError<DownloadLinkRefused>()("DownloadLinkRefused", {
  reason: Schema.Literal("malformed", "bad_signature", "expired")
}) {
  override get message(): string {
    return "The download link is invalid or has expired"
  }
}
