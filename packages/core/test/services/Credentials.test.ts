import { describe, expect, it } from "@effect/vitest"
import { Effect, Redacted, Schema } from "effect"
import { Credentials } from "../../src/tools/Credentials.js"
import { CreateToolRequest } from "../../src/tools/Tool.js"
import { Tools } from "../../src/tools/Tools.js"
import * as Fixtures from "../../testing/Fixtures.js"
import { engine, setNow } from "./Engine.js"

const toolUsing = (credential_uuid: string) =>
  Schema.decodeUnknownSync(CreateToolRequest)({
    name: "Lookup",
    definition: { type: "http_api", config: { method: "GET", url: "https://example.com", credential_uuid } }
  })

const firstPage = { page: 1, limit: 50 }

describe("Credentials", () => {
  it.effect("stores the secret redacted, and a header name only for api_key_header", () =>
    Effect.gen(function* () {
      yield* setNow("2026-05-01T10:00:00Z")
      const organization = yield* Fixtures.organization()
      const credentials = yield* Credentials
      const key = yield* credentials.create(organization.id, {
        name: "CRM key",
        kind: "api_key_header",
        secret: "k-123",
        header_name: "X-Api-Key"
      })
      expect(key).toMatchObject({
        name: "CRM key",
        kind: "api_key_header",
        header_name: "X-Api-Key",
        created_at: new Date("2026-05-01T10:00:00Z")
      })
      expect(Redacted.isRedacted(key.secret)).toBe(true)
      expect(String(key.secret)).not.toContain("k-123")
      const read = yield* credentials.get(organization.id, key.credential_uuid)
      expect(Redacted.value(read.secret)).toBe("k-123")
      const bearer = yield* credentials.create(organization.id, { name: "T", kind: "bearer", secret: "t" })
      expect(bearer.header_name).toBeNull()
      expect((yield* credentials.list(organization.id, firstPage)).total_count).toBe(2)
    }).pipe(Effect.provide(engine))
  )

  it.effect(
    "refuses to delete a credential an active tool uses, and allows it once the tool is archived",
    () =>
      Effect.gen(function* () {
        const organization = yield* Fixtures.organization()
        const credentials = yield* Credentials
        const tools = yield* Tools
        const credential = yield* credentials.create(organization.id, {
          name: "T",
          kind: "bearer",
          secret: "t"
        })
        const first = yield* tools.create(organization.id, toolUsing(credential.credential_uuid))
        const second = yield* tools.create(organization.id, toolUsing(credential.credential_uuid))
        const error = yield* Effect.flip(credentials.remove(organization.id, credential.credential_uuid))
        expect(error._tag).toBe("CredentialInUse")
        expect(error._tag === "CredentialInUse" && [...error.tool_uuids].sort()).toEqual(
          [first.tool_uuid, second.tool_uuid].sort()
        )
        yield* tools.archive(organization.id, first.tool_uuid)
        yield* tools.archive(organization.id, second.tool_uuid)
        yield* credentials.remove(organization.id, credential.credential_uuid)
        const gone = yield* Effect.flip(credentials.get(organization.id, credential.credential_uuid))
        expect(gone).toMatchObject({ _tag: "CredentialNotFound" })
        expect(
          yield* Effect.flip(credentials.remove(organization.id, credential.credential_uuid))
        ).toMatchObject({
          _tag: "CredentialNotFound"
        })
      }).pipe(Effect.provide(engine))
  )

  it.effect("finds users beyond the first page of tools", () =>
    Effect.gen(function* () {
      const organization = yield* Fixtures.organization()
      const credentials = yield* Credentials
      const tools = yield* Tools
      const credential = yield* credentials.create(organization.id, {
        name: "T",
        kind: "bearer",
        secret: "t"
      })
      // the oldest tool is the only user, so it sits on the last page of a newest-first list
      const user = yield* tools.create(organization.id, toolUsing(credential.credential_uuid))
      const other = Schema.decodeUnknownSync(CreateToolRequest)({
        name: "End",
        definition: { type: "end_call", config: {} }
      })
      yield* Effect.forEach(Array.from({ length: 101 }), () => tools.create(organization.id, other))
      const error = yield* Effect.flip(credentials.remove(organization.id, credential.credential_uuid))
      expect(error).toMatchObject({ _tag: "CredentialInUse", tool_uuids: [user.tool_uuid] })
    }).pipe(Effect.provide(engine))
  )

  it.effect("another organization's credential is not found", () =>
    Effect.gen(function* () {
      const organization = yield* Fixtures.organization()
      const stranger = yield* Fixtures.organization()
      const credentials = yield* Credentials
      const credential = yield* credentials.create(organization.id, {
        name: "T",
        kind: "bearer",
        secret: "t"
      })
      for (const attempt of [
        credentials.get(stranger.id, credential.credential_uuid),
        credentials.remove(stranger.id, credential.credential_uuid)
      ]) {
        expect(yield* Effect.flip(attempt)).toMatchObject({ _tag: "CredentialNotFound" })
      }
      expect((yield* credentials.get(organization.id, credential.credential_uuid)).name).toBe("T")
      expect((yield* credentials.list(stranger.id, firstPage)).total_count).toBe(0)
    }).pipe(Effect.provide(engine))
  )
})
