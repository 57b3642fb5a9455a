import { SqlClient } from "@effect/sql"
import { Data, Effect, Layer, Redacted, Schema } from "effect"
import * as crypto from "node:crypto"
import * as Rows from "../storage/Rows.js"
import { type SealedAt, SecretBox } from "./SecretBox.js"

/** Where the shared secret called `name` is sealed. */
const placeOf = (name: string): SealedAt => ({ table: "server_secrets", column: "value", key: name })

const Stored = Schema.Struct({ value: Schema.String })

/** Stores `sealed` under `name` unless a value is there already, and answers the stored one (sealed). */
const storedOnce = (name: string, sealed: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    Rows.execute(
      sql`INSERT INTO server_secrets (name, value) VALUES (${name}, ${sealed}) ON CONFLICT (name) DO NOTHING`
    ).pipe(
      Effect.zipRight(Rows.single(Stored)(sql`SELECT value FROM server_secrets WHERE name = ${name}`)),
      Effect.map((row) => row.value)
    )
  )

/**
 * The shared secret called `name`: the one stored in the database, or, for the first server that asks, a
 * fresh random one (256 bits, base64) stored for every later server. Servers starting at once agree on one
 * value: the insert that loses the race keeps the winner's. Stored sealed, like every secret.
 */
export const shared = (
  name: string
): Effect.Effect<Redacted.Redacted<string>, never, SqlClient.SqlClient | SecretBox> =>
  Effect.flatMap(SecretBox, (box) =>
    storedOnce(name, box.seal(crypto.randomBytes(32).toString("base64"), placeOf(name))).pipe(
      Effect.flatMap((sealed) => Effect.try(() => Redacted.make(box.open(sealed, placeOf(name))))),
      Effect.orDie
    )
  )

/** The name of the download links' signing secret. */
export const linkSigning = "link_signing"

/** The encryption key is not the one the database's secrets were sealed with. */
export class EncryptionKeyMismatch extends Data.TaggedError("EncryptionKeyMismatch")<{}> {
  override get message() {
    return (
      "The encryption key (ENCRYPTION_KEY, or DATA_DIR/encryption.key) is not the one this database's " +
      "secrets were sealed with. Every server over one database needs the same key."
    )
  }
}

const keyCheck = "encryption_key_check"
const keyCheckText = "voice-agent-platform encryption key check"

/**
 * Makes sure this server's key opens what the database holds: the first server seals a known text, every
 * later one must open it. A server with another key stops at start, before it writes a secret nobody else
 * can read or dies on one it cannot.
 */
export const verifyKey: Effect.Effect<void, EncryptionKeyMismatch, SqlClient.SqlClient | SecretBox> =
  Effect.flatMap(SecretBox, (box) =>
    storedOnce(keyCheck, box.seal(keyCheckText, placeOf(keyCheck))).pipe(
      Effect.flatMap((sealed) =>
        Effect.try({
          try: () => box.open(sealed, placeOf(keyCheck)),
          catch: () => new EncryptionKeyMismatch()
        })
      ),
      Effect.filterOrFail(
        (text) => text === keyCheckText,
        () => new EncryptionKeyMismatch()
      ),
      Effect.asVoid
    )
  )

/** `verifyKey` as a layer: built before the stores, so a wrong key stops the server at start. */
export const layerVerifiedKey: Layer.Layer<never, EncryptionKeyMismatch, SqlClient.SqlClient | SecretBox> =
  Layer.effectDiscard(verifyKey)
