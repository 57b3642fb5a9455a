import { describe, expect, it } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { ConfigProvider, Effect, Exit, Layer, Redacted, Schema } from "effect"
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import * as Migrations from "../../src/migrations/Migrations.js"
import * as SecretBox from "../../src/secrets/SecretBox.js"
import * as ServerSecrets from "../../src/secrets/ServerSecrets.js"
import { layerEmbedded } from "../../testing/TestDatabase.js"

const place: SecretBox.SealedAt = { table: "server_secrets", column: "value", key: "a test value" }

const boxA = SecretBox.layer(Redacted.make("the first encryption key of this test 0123"))
const boxB = SecretBox.layer(Redacted.make("another encryption key, not the first 0123"))
const database = Layer.provideMerge(Migrations.layer, layerEmbedded)

describe("server secrets", () => {
  it.live("answers every caller the one stored secret and keeps it sealed in the table", () =>
    Effect.gen(function* () {
      const first = yield* ServerSecrets.shared("test_secret")
      const second = yield* ServerSecrets.shared("test_secret")
      expect(Redacted.value(second)).toBe(Redacted.value(first))
      expect(Redacted.value(first).length).toBeGreaterThanOrEqual(32)
      const sql = yield* SqlClient.SqlClient
      const [row] = yield* sql`SELECT value FROM server_secrets WHERE name = 'test_secret'`
      const stored = Schema.decodeUnknownSync(Schema.Struct({ value: Schema.String }))(row).value
      expect(stored.startsWith("v2:")).toBe(true)
      expect(stored).not.toContain(Redacted.value(first))
    }).pipe(Effect.provide(Layer.merge(database, boxA)))
  )

  it.live("accepts the key the database was first used with and refuses any other", () =>
    Effect.gen(function* () {
      const context = yield* Layer.build(database)
      const withKey = (box: Layer.Layer<SecretBox.SecretBox>) =>
        Effect.exit(ServerSecrets.verifyKey.pipe(Effect.provide(box), Effect.provide(context)))
      expect(yield* withKey(boxA)).toStrictEqual(Exit.void)
      expect(yield* withKey(boxA)).toStrictEqual(Exit.void)
      expect(yield* withKey(boxB)).toStrictEqual(Exit.fail(new ServerSecrets.EncryptionKeyMismatch()))
    }).pipe(Effect.scoped)
  )

  it.live(
    "makes a key file once (owner-only), reads it back on the next start, and refuses an empty one",
    () =>
      Effect.gen(function* () {
        const directory = yield* Effect.promise(() => fs.mkdtemp(path.join(os.tmpdir(), "vap-key-")))
        const file = path.join(directory, "encryption.key")
        const first = yield* Effect.provide(SecretBox.SecretBox, SecretBox.layerKeyFile(file))
        const second = yield* Effect.provide(SecretBox.SecretBox, SecretBox.layerKeyFile(file))
        expect(second.open(first.seal("kept across restarts", place), place)).toBe("kept across restarts")
        expect((yield* Effect.promise(() => fs.stat(file))).mode & 0o777).toBe(0o600)

        const empty = path.join(directory, "empty.key")
        yield* Effect.promise(() => fs.writeFile(empty, ""))
        const refused = yield* Effect.exit(Effect.provide(SecretBox.SecretBox, SecretBox.layerKeyFile(empty)))
        expect(refused).toStrictEqual(Exit.fail(new SecretBox.KeyFileDamaged({ file: empty })))
      })
  )
})

describe("configured from the environment", () => {
  it.live("SecretBox.layerConfig reads ENCRYPTION_KEY and refuses a short one", () =>
    Effect.gen(function* () {
      const withKey = (key: string) =>
        Effect.exit(
          Effect.provide(SecretBox.SecretBox, SecretBox.layerConfig).pipe(
            Effect.withConfigProvider(ConfigProvider.fromMap(new Map([["ENCRYPTION_KEY", key]])))
          )
        )
      const box = yield* withKey("an-encryption-key-from-the-environment-0123")
      expect(Exit.isSuccess(box)).toBe(true)
      if (Exit.isSuccess(box)) expect(box.value.open(box.value.seal("x", place), place)).toBe("x")
      expect(Exit.isFailure(yield* withKey("too short"))).toBe(true)
    })
  )
})
