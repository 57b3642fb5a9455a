import { Config, type ConfigError, Context, Data, Effect, Layer, Redacted } from "effect"
import * as crypto from "node:crypto"
import * as ExclusiveFile from "../local-files/ExclusiveFile.js"

/** What a value sealed to its row starts with: the scheme's version. */
const version = "v2"

/** What a value sealed before values were bound to their rows starts with (no associated data). */
const unboundVersion = "v1"

/**
 * Where a sealed value lives: its table, its column and its row's key. Sealed into the value as AES-GCM
 * associated data, so that a sealed value copied into another row or column (by a bad migration, a
 * restore gone wrong or someone with write access to the database) does not open there.
 */
export interface SealedAt {
  readonly table: string
  readonly column: string
  readonly key: string
}

/** The associated data of a place: unambiguous whatever the key holds. */
const associatedData = (at: SealedAt): Buffer =>
  Buffer.from(JSON.stringify(["voice-agent-platform sealed value", at.table, at.column, at.key]), "utf8")

/**
 * Encryption of secrets at rest (credential secrets, webhook signing secrets, integration configs, tool
 * definitions): AES-256-GCM with a fresh 96-bit nonce per value and the value's place (`SealedAt`) as
 * associated data, so a database dump or backup does not give the secrets away and a value moved to
 * another row does not open. Every server over one database must use the same key.
 */
export class SecretBox extends Context.Tag("@voice-agent-platform/pg/SecretBox")<
  SecretBox,
  {
    /** `v2:` and base64 of nonce, ciphertext and tag, bound to `at`. */
    readonly seal: (plaintext: string, at: SealedAt) => string
    /** The plaintext of a value sealed at `at`; throws when it was altered, moved, or sealed with another key. */
    readonly open: (sealed: string, at: SealedAt) => string
    /**
     * The plaintext of a value sealed in the earlier, unbound scheme (`v1:`); only for re-sealing those
     * values in place (`SealedColumns.resealUnbound`). Throws on anything else.
     */
    readonly openUnbound: (sealed: string) => string
  }
>() {}

/** The AES key derived from a secret of any length (SHA-256 of it). */
const keyFrom = (secret: Redacted.Redacted<string>): Buffer =>
  crypto.createHash("sha256").update(Redacted.value(secret), "utf8").digest()

/** The plaintext of `body` (base64 of nonce, ciphertext and tag), checked against `aad` when given. */
const decrypt = (key: Buffer, body: string, aad: Buffer | undefined): string => {
  const bytes = Buffer.from(body, "base64")
  if (bytes.length < 28) throw new Error("sealed value is too short")
  const decipher = crypto.createDecipheriv("aes-256-gcm", key, bytes.subarray(0, 12))
  if (aad !== undefined) decipher.setAAD(aad)
  decipher.setAuthTag(bytes.subarray(bytes.length - 16))
  return Buffer.concat([decipher.update(bytes.subarray(12, bytes.length - 16)), decipher.final()]).toString(
    "utf8"
  )
}

/** The scheme and body of a sealed value. */
const partsOf = (sealed: string): readonly [scheme: string | undefined, body: string | undefined] => {
  const colon = sealed.indexOf(":")
  return colon < 0 ? [undefined, undefined] : [sealed.slice(0, colon), sealed.slice(colon + 1)]
}

/** A box sealing with the key derived from `secret`. */
export const make = (secret: Redacted.Redacted<string>): SecretBox["Type"] => {
  const key = keyFrom(secret)
  return {
    seal: (plaintext, at) => {
      const nonce = crypto.randomBytes(12)
      const cipher = crypto.createCipheriv("aes-256-gcm", key, nonce)
      cipher.setAAD(associatedData(at))
      const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()])
      return `${version}:${Buffer.concat([nonce, ciphertext, cipher.getAuthTag()]).toString("base64")}`
    },
    open: (sealed, at) => {
      const [scheme, body] = partsOf(sealed)
      if (scheme !== version || body === undefined) throw new Error(`not a sealed value of scheme ${version}`)
      return decrypt(key, body, associatedData(at))
    },
    openUnbound: (sealed) => {
      const [scheme, body] = partsOf(sealed)
      if (scheme !== unboundVersion || body === undefined) {
        throw new Error(`not a sealed value of scheme ${unboundVersion}`)
      }
      return decrypt(key, body, undefined)
    }
  }
}

/** A box with the given secret. */
export const layer = (secret: Redacted.Redacted<string>): Layer.Layer<SecretBox> =>
  Layer.succeed(SecretBox, make(secret))

/** A box with the secret in `ENCRYPTION_KEY` (at least 32 characters). */
export const layerConfig: Layer.Layer<SecretBox, ConfigError.ConfigError> = Layer.unwrapEffect(
  Effect.map(
    Config.redacted("ENCRYPTION_KEY").pipe(
      Config.validate({
        message: "ENCRYPTION_KEY must be at least 32 characters",
        validation: (secret) => Redacted.value(secret).length >= 32
      })
    ),
    layer
  )
)

/** The key file is empty or damaged: sealed values cannot be opened without the right key. */
export class KeyFileDamaged extends Data.TaggedError("KeyFileDamaged")<{ readonly file: string }> {
  override get message() {
    return (
      `${this.file} does not hold a key (it is empty or damaged). Restore it from a backup: the secrets ` +
      `stored in this data directory can only be read with the key they were sealed with.`
    )
  }
}

/**
 * A box whose key is kept in a file (created with a random 256-bit key, readable by its owner only, the
 * first time, atomically: never empty or half-written): the embedded database's default, so that a
 * newcomer needs no setting and a restart can still open what was sealed. The file lives beside the
 * database files, not inside them, and must be backed up with them.
 */
export const layerKeyFile = (file: string): Layer.Layer<SecretBox, KeyFileDamaged> =>
  Layer.effect(
    SecretBox,
    Effect.gen(function* () {
      const text = yield* Effect.promise(async () => {
        await ExclusiveFile.create(file, crypto.randomBytes(32).toString("base64") + "\n")
        return ExclusiveFile.read(file)
      })
      const key = text?.trim() ?? ""
      if (key.length < 32) return yield* new KeyFileDamaged({ file })
      return make(Redacted.make(key))
    })
  )
