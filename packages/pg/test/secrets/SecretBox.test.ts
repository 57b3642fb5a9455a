import { SqlClient } from "@effect/sql"
import { describe, expect, it, layer } from "@effect/vitest"
import { IntegrationStore } from "@voice-agent-platform/core/integrations/IntegrationStore.js"
import { OrganizationId } from "@voice-agent-platform/core/organizations/Organization.js"
import { Fixtures } from "@voice-agent-platform/core/testing"
import { CredentialStore } from "@voice-agent-platform/core/tools/CredentialStore.js"
import { ToolStore } from "@voice-agent-platform/core/tools/ToolStore.js"
import { endpointIdFrom } from "@voice-agent-platform/core/webhooks/WebhookEndpoint.js"
import { WebhookStore } from "@voice-agent-platform/core/webhooks/WebhookStore.js"
import * as Migrator from "@effect/sql/Migrator"
import { Effect, Exit, Layer, Option, Redacted } from "effect"
import * as crypto from "node:crypto"
import * as EmbeddedPostgres from "../../src/connection/EmbeddedPostgres.js"
import * as Migrations from "../../src/migrations/Migrations.js"
import * as SealedColumns from "../../src/secrets/SealedColumns.js"
import * as SecretBox from "../../src/secrets/SecretBox.js"
import * as ServerSecrets from "../../src/secrets/ServerSecrets.js"
import * as PgStorage from "../../src/storage/PgStorage.js"

const key = Redacted.make("a test key that is long enough to be a real one")
const box = SecretBox.make(key)
const place: SecretBox.SealedAt = { table: "credentials", column: "secret", key: "cred-1" }

/** A value sealed as the versions before row binding did (`v1:`, no associated data). */
const sealedUnbound = (plaintext: string, secret: Redacted.Redacted<string> = key) => {
  const aesKey = crypto.createHash("sha256").update(Redacted.value(secret), "utf8").digest()
  const nonce = crypto.randomBytes(12)
  const cipher = crypto.createCipheriv("aes-256-gcm", aesKey, nonce)
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()])
  return `v1:${Buffer.concat([nonce, ciphertext, cipher.getAuthTag()]).toString("base64")}`
}

/** The sealed value with one byte of its ciphertext flipped. */
const tampered = (sealed: string, at: number) => {
  const bytes = Buffer.from(sealed.slice("v2:".length), "base64")
  bytes[at] = bytes[at]! ^ 0x01
  return `v2:${bytes.toString("base64")}`
}

describe("SecretBox", () => {
  it("opens what it sealed, at the same place", () => {
    for (const plaintext of ["", "s3cret", "zażółć gęślą jaźń 🔑", "x".repeat(10_000)]) {
      const sealed = box.seal(plaintext, place)
      expect(sealed.startsWith("v2:")).toBe(true)
      expect(box.open(sealed, place)).toBe(plaintext)
    }
  })

  it("draws a fresh nonce for every seal, so equal secrets do not look equal", () => {
    const first = box.seal("same value", place)
    const second = box.seal("same value", place)
    expect(first).not.toBe(second)
    expect(Buffer.from(first.slice(3), "base64").subarray(0, 12)).not.toEqual(
      Buffer.from(second.slice(3), "base64").subarray(0, 12)
    )
    expect(box.open(first, place)).toBe("same value")
    expect(box.open(second, place)).toBe("same value")
  })

  it("refuses a value that was altered, sealed with another key, or never sealed", () => {
    const sealed = box.seal("s3cret", place)
    const length = Buffer.from(sealed.slice(3), "base64").length
    // the nonce, the ciphertext and the tag: any flipped bit fails authentication
    for (const at of [0, 12, length - 1]) expect(() => box.open(tampered(sealed, at), place)).toThrow()
    const other = SecretBox.make(Redacted.make("another key, just as long as the first one"))
    expect(() => other.open(sealed, place)).toThrow()
    expect(() => box.open("s3cret", place)).toThrow()
    expect(() => box.open("v1:" + sealed.slice(3), place)).toThrow()
    expect(() => box.open("v2:AAAA", place)).toThrow()
  })

  it("refuses a value moved to another row, column or table", () => {
    const sealed = box.seal("s3cret", place)
    for (const elsewhere of [
      { ...place, key: "cred-2" },
      { ...place, column: "name" },
      { ...place, table: "webhook_endpoints" },
      // the parts are not simply joined: moving text between them changes the place
      { table: "credentials", column: "secret", key: "cred-1 " },
      { table: "credentials.secret", column: "", key: "cred-1" }
    ]) {
      expect(() => box.open(sealed, elsewhere), JSON.stringify(elsewhere)).toThrow()
    }
  })

  it("opens a value sealed in the earlier, unbound format only for re-sealing it", () => {
    const old = sealedUnbound("from before the upgrade")
    expect(box.openUnbound(old)).toBe("from before the upgrade")
    expect(() => box.open(old, place)).toThrow()
    expect(() => box.openUnbound(box.seal("new", place))).toThrow()
    expect(() =>
      box.openUnbound(sealedUnbound("x", Redacted.make("another key, just as long as the first one")))
    ).toThrow()
  })
})

const stores = PgStorage.layer.pipe(
  Layer.provideMerge(Layer.merge(EmbeddedPostgres.layer(), SecretBox.layer(Redacted.make("k".repeat(32)))))
)

layer(stores, { timeout: "60 seconds" })("secrets at rest (PGlite)", (it) => {
  it.effect("keeps credential, tool, integration and webhook secrets out of the tables' plain text", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const org = yield* Fixtures.organization()
      const suffix = yield* Fixtures.unique()
      const at = Fixtures.epoch

      const credentials = yield* CredentialStore
      const credentialSecret = `credential-secret-${suffix}`
      yield* credentials.insert({
        credential_uuid: `cred-${suffix}`,
        organization_id: org.id,
        name: "CRM token",
        kind: "bearer",
        header_name: null,
        secret: Redacted.make(credentialSecret),
        created_at: at
      })

      const tools = yield* ToolStore
      const headerSecret = `header-secret-${suffix}`
      yield* tools.insert(
        {
          tool_uuid: `tool-${suffix}`,
          organization_id: org.id,
          name: "Lookup",
          description: null,
          category: "http_api",
          icon: null,
          icon_color: null,
          status: "active",
          definition: {
            schema_version: 1,
            type: "http_api",
            config: {
              method: "GET",
              url: "https://crm.example.com/lookup",
              headers: { Authorization: `Bearer ${headerSecret}` },
              timeout_ms: 5000
            }
          },
          created_by: null
        },
        at
      )

      const integrations = yield* IntegrationStore
      const password = `integration-password-${suffix}`
      yield* integrations.insert({
        id: `conn-${suffix}`,
        organization_id: org.id,
        provider: "calendly",
        name: "Calendar",
        config: { username: "ops", password },
        enabled: true,
        auth_error: null,
        created_at: at,
        updated_at: at
      })

      const webhooks = yield* WebhookStore
      const signingSecret = `whsec_${Buffer.from(`signing-${suffix}`).toString("base64")}`
      const endpointId = endpointIdFrom(`${suffix}00000000`)
      yield* webhooks.insertEndpoint({
        id: endpointId,
        organization_id: org.id,
        url: "https://example.com/hook",
        description: null,
        events: ["call.ended"],
        secret: signingSecret,
        enabled: true,
        created_at: at
      })

      // Every column of every row, as text: no secret appears in it.
      const tableText = (table: string) =>
        sql<{ readonly row: string }>`
          SELECT t::text AS row FROM ${sql(table)} t WHERE organization_id = ${org.id}`.pipe(
          Effect.map((rows) => rows.map((r) => r.row).join("\n"))
        )
      const dump = (yield* Effect.all(
        ["credentials", "tools", "integration_connections", "webhook_endpoints"].map(tableText)
      )).join("\n")
      expect(dump).toContain(`cred-${suffix}`)
      for (const secret of [credentialSecret, headerSecret, password, signingSecret]) {
        expect(dump).not.toContain(secret)
      }

      // The secret column holds a sealed value that opens to the secret.
      const [row] = yield* sql<{ readonly secret: string }>`
        SELECT secret FROM credentials WHERE credential_uuid = ${`cred-${suffix}`}`
      expect(row!.secret.startsWith("v2:")).toBe(true)
      expect(
        (yield* SecretBox.SecretBox).open(row!.secret, {
          table: "credentials",
          column: "secret",
          key: `cred-${suffix}`
        })
      ).toBe(credentialSecret)

      // and the stores read the secrets back as they were written
      const credential = Option.getOrThrow(yield* credentials.find(org.id, `cred-${suffix}`))
      expect(Redacted.value(credential.secret)).toBe(credentialSecret)
      const tool = Option.getOrThrow(yield* tools.find(org.id, `tool-${suffix}`))
      expect(tool.definition.type === "http_api" && tool.definition.config.headers).toEqual({
        Authorization: `Bearer ${headerSecret}`
      })
      const connection = Option.getOrThrow(yield* integrations.find(org.id, `conn-${suffix}`))
      expect(connection.config).toEqual({ username: "ops", password })
      const endpoint = Option.getOrThrow(yield* webhooks.findEndpoint(org.id, endpointId))
      expect(endpoint.secret).toBe(signingSecret)
    })
  )
})

describe("a database written before secrets were bound to their rows", () => {
  it.live("opens every value after the upgrade, re-sealed to its row; a copied value no longer opens", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      // the schema and the secrets as the previous version left them: version 2, every value `v1:`
      yield* Migrator.make({})({
        loader: Migrator.fromRecord({
          "0001_initial": Migrations.migrations["0001_initial"]!,
          "0002_run_counts": Migrations.migrations["0002_run_counts"]!
        }),
        table: Migrations.migrationsTable
      })
      const [org] = yield* sql<{ id: number }>`
        INSERT INTO organizations (name, outbound_channels, balance, created_at)
        VALUES ('Before the upgrade', 10, 0, now()) RETURNING id`
      const orgId = OrganizationId.make(org!.id)
      const endpointId = endpointIdFrom("oldEndpoint000000000")
      const definition = { schema_version: 1, type: "end_call", config: { messageType: "none" } }
      yield* sql`INSERT INTO server_secrets (name, value) VALUES
        ('encryption_key_check', ${sealedUnbound("voice-agent-platform encryption key check")}),
        ('link_signing', ${sealedUnbound("the link secret from before the upgrade")})`
      yield* sql`INSERT INTO credentials (credential_uuid, organization_id, name, kind, header_name, secret, created_at)
        VALUES ('cred-old', ${orgId}, 'Old', 'bearer', NULL, ${sealedUnbound("old credential secret")}, now())`
      yield* sql`INSERT INTO tools (tool_uuid, organization_id, name, category, status, definition, created_at)
        VALUES ('tool-old', ${orgId}, 'Old', 'end_call', 'active', ${sealedUnbound(JSON.stringify(definition))}, now())`
      yield* sql`INSERT INTO webhook_endpoints (id, organization_id, url, events, secret, enabled, created_at)
        VALUES (${endpointId}, ${orgId}, 'https://example.com/hook', '["call.ended"]',
          ${sealedUnbound("whsec_old")}, true, now())`
      yield* sql`INSERT INTO integration_connections (id, organization_id, provider, name, config, enabled, created_at, updated_at)
        VALUES ('conn-old', ${orgId}, 'calendly', 'Old', ${sealedUnbound(JSON.stringify({ password: "old" }))}, true, now(), now())`

      // a server with another key stops at start and rewrites nothing
      const otherKey = SecretBox.layer(Redacted.make("another key, just as long as the first one"))
      const refused = yield* Effect.exit(
        Effect.scoped(Layer.build(PgStorage.layer.pipe(Layer.provide(otherKey))))
      )
      expect(refused).toStrictEqual(Exit.fail(new ServerSecrets.EncryptionKeyMismatch()))
      const sealedValues = sql<{ value: string }>`
        SELECT secret AS value FROM credentials UNION ALL SELECT definition FROM tools
        UNION ALL SELECT secret FROM webhook_endpoints UNION ALL SELECT config FROM integration_connections
        UNION ALL SELECT value FROM server_secrets`
      expect((yield* sealedValues).every((row) => row.value.startsWith("v1:"))).toBe(true)

      // this version over it, with the database's key
      const context = yield* Layer.build(PgStorage.layer)
      const values = yield* sealedValues
      expect(values).toHaveLength(6)
      expect(values.every((row) => row.value.startsWith("v2:"))).toBe(true)
      const read = <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.provide(effect, context)
      const credentials = yield* read(CredentialStore)
      expect(Redacted.value(Option.getOrThrow(yield* credentials.find(orgId, "cred-old")).secret)).toBe(
        "old credential secret"
      )
      const tools = yield* read(ToolStore)
      expect(Option.getOrThrow(yield* tools.find(orgId, "tool-old")).definition).toEqual(definition)
      const webhooks = yield* read(WebhookStore)
      expect(Option.getOrThrow(yield* webhooks.findEndpoint(orgId, endpointId)).secret).toBe("whsec_old")
      const integrations = yield* read(IntegrationStore)
      expect(Option.getOrThrow(yield* integrations.find(orgId, "conn-old")).config).toEqual({
        password: "old"
      })
      expect(Redacted.value(yield* read(ServerSecrets.shared(ServerSecrets.linkSigning)))).toBe(
        "the link secret from before the upgrade"
      )
      // starting again finds nothing left to re-seal
      expect(yield* read(SealedColumns.resealUnbound)).toBe(0)

      // a sealed secret copied into another organization's row does not open there
      const [thief] = yield* sql<{ id: number }>`
        INSERT INTO organizations (name, outbound_channels, balance, created_at)
        VALUES ('Thief', 10, 0, now()) RETURNING id`
      yield* credentials.insert({
        credential_uuid: "cred-thief",
        organization_id: OrganizationId.make(thief!.id),
        name: "Mine",
        kind: "bearer",
        header_name: null,
        secret: Redacted.make("my own secret"),
        created_at: new Date()
      })
      yield* sql`UPDATE credentials SET secret = (SELECT secret FROM credentials WHERE credential_uuid = 'cred-old')
        WHERE credential_uuid = 'cred-thief'`
      const stolen = yield* Effect.exit(credentials.find(OrganizationId.make(thief!.id), "cred-thief"))
      expect(Exit.isFailure(stolen)).toBe(true)
      expect(JSON.stringify(stolen)).not.toContain("old credential secret")
    }).pipe(Effect.scoped, Effect.provide(Layer.merge(EmbeddedPostgres.layer(), SecretBox.layer(key))))
  )
})
