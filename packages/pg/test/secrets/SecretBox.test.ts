import { SqlClient } from "@effect/sql"
import { describe, expect, it, layer } from "@effect/vitest"
import { IntegrationStore } from "@voice-agent-platform/core/integrations/IntegrationStore.js"
import { Fixtures } from "@voice-agent-platform/core/testing"
import { CredentialStore } from "@voice-agent-platform/core/tools/CredentialStore.js"
import { ToolStore } from "@voice-agent-platform/core/tools/ToolStore.js"
import { endpointIdFrom } from "@voice-agent-platform/core/webhooks/WebhookEndpoint.js"
import { WebhookStore } from "@voice-agent-platform/core/webhooks/WebhookStore.js"
import { Effect, Layer, Option, Redacted } from "effect"
import * as EmbeddedPostgres from "../../src/connection/EmbeddedPostgres.js"
import * as SecretBox from "../../src/secrets/SecretBox.js"
import * as PgStorage from "../../src/storage/PgStorage.js"

const box = SecretBox.make(Redacted.make("a test key that is long enough to be a real one"))

/** The sealed value with one byte of its ciphertext flipped. */
const tampered = (sealed: string, at: number) => {
  const bytes = Buffer.from(sealed.slice("v1:".length), "base64")
  bytes[at] = bytes[at]! ^ 0x01
  return `v1:${bytes.toString("base64")}`
}

describe("SecretBox", () => {
  it("opens what it sealed", () => {
    for (const plaintext of ["", "s3cret", "zażółć gęślą jaźń 🔑", "x".repeat(10_000)]) {
      const sealed = box.seal(plaintext)
      expect(sealed.startsWith("v1:")).toBe(true)
      expect(box.open(sealed)).toBe(plaintext)
    }
  })

  it("draws a fresh nonce for every seal, so equal secrets do not look equal", () => {
    const first = box.seal("same value")
    const second = box.seal("same value")
    expect(first).not.toBe(second)
    expect(Buffer.from(first.slice(3), "base64").subarray(0, 12)).not.toEqual(
      Buffer.from(second.slice(3), "base64").subarray(0, 12)
    )
    expect(box.open(first)).toBe("same value")
    expect(box.open(second)).toBe("same value")
  })

  it("refuses a value that was altered, sealed with another key, or never sealed", () => {
    const sealed = box.seal("s3cret")
    const length = Buffer.from(sealed.slice(3), "base64").length
    // the nonce, the ciphertext and the tag: any flipped bit fails authentication
    for (const at of [0, 12, length - 1]) expect(() => box.open(tampered(sealed, at))).toThrow()
    const other = SecretBox.make(Redacted.make("another key, just as long as the first one"))
    expect(() => other.open(sealed)).toThrow()
    expect(() => box.open("s3cret")).toThrow()
    expect(() => box.open("v2:" + sealed.slice(3))).toThrow()
    expect(() => box.open("v1:AAAA")).toThrow()
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
      expect(row!.secret.startsWith("v1:")).toBe(true)
      expect((yield* SecretBox.SecretBox).open(row!.secret)).toBe(credentialSecret)

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
