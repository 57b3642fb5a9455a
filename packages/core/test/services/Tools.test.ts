import { describe, expect, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { Credentials } from "../../src/tools/Credentials.js"
import { CreateToolRequest } from "../../src/tools/Tool.js"
import { Tools } from "../../src/tools/Tools.js"
import * as Fixtures from "../../testing/Fixtures.js"
import { engine, setNow } from "./Engine.js"

const request = (input: Record<string, unknown>) =>
  Schema.decodeUnknownSync(CreateToolRequest)({ name: "Lookup", ...input })

const httpTool = (credential_uuid?: string) =>
  request({
    definition: {
      type: "http_api",
      config: {
        method: "POST",
        url: "https://crm.example.com/lookup",
        ...(credential_uuid === undefined ? {} : { credential_uuid })
      }
    }
  })

const firstPage = { page: 1, limit: 50 }

describe("Tools", () => {
  it.effect("creates an active tool with the documented defaults and a v4 uuid", () =>
    Effect.gen(function* () {
      yield* setNow("2026-05-01T10:00:00Z")
      const organization = yield* Fixtures.organization()
      const tools = yield* Tools
      const tool = yield* tools.create(organization.id, httpTool())
      expect(tool.tool_uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
      expect(tool).toMatchObject({
        name: "Lookup",
        description: null,
        category: "http_api",
        icon: "globe",
        icon_color: "#3B82F6",
        status: "active",
        created_at: new Date("2026-05-01T10:00:00Z"),
        updated_at: null,
        created_by: null
      })
      expect(tool.definition).toMatchObject({
        schema_version: 1,
        type: "http_api",
        config: { timeout_ms: 5000 }
      })
      expect(yield* tools.get(organization.id, tool.tool_uuid)).toEqual(tool)
    }).pipe(Effect.provide(engine))
  )

  it.effect("an unknown or foreign credential_uuid is not found, on create and on update", () =>
    Effect.gen(function* () {
      const organization = yield* Fixtures.organization()
      const stranger = yield* Fixtures.organization()
      const tools = yield* Tools
      const foreign = yield* (yield* Credentials).create(stranger.id, {
        name: "x",
        kind: "bearer",
        secret: "s"
      })
      for (const uuid of ["missing", foreign.credential_uuid]) {
        const error = yield* Effect.flip(tools.create(organization.id, httpTool(uuid)))
        expect(error).toMatchObject({ _tag: "CredentialNotFound", credential_uuid: uuid })
      }
      expect((yield* tools.list(organization.id, {}, firstPage)).total_count).toBe(0)
      const tool = yield* tools.create(organization.id, httpTool())
      const error = yield* Effect.flip(
        tools.update(organization.id, tool.tool_uuid, { definition: httpTool("missing").definition })
      )
      expect(error._tag).toBe("CredentialNotFound")
      const mine = yield* (yield* Credentials).create(organization.id, {
        name: "y",
        kind: "bearer",
        secret: "s"
      })
      const updated = yield* tools.update(organization.id, tool.tool_uuid, {
        definition: httpTool(mine.credential_uuid).definition
      })
      expect(updated.definition).toMatchObject({ config: { credential_uuid: mine.credential_uuid } })
    }).pipe(Effect.provide(engine))
  )

  it.effect("updates only the given fields and stamps updated_at", () =>
    Effect.gen(function* () {
      yield* setNow("2026-05-01T10:00:00Z")
      const organization = yield* Fixtures.organization()
      const tools = yield* Tools
      const tool = yield* tools.create(
        organization.id,
        request({ definition: { type: "end_call", config: {} } })
      )
      yield* setNow("2026-05-01T11:00:00Z")
      const updated = yield* tools.update(organization.id, tool.tool_uuid, { name: "Hang up", icon: null })
      expect(updated).toEqual({
        ...tool,
        name: "Hang up",
        icon: null,
        updated_at: new Date("2026-05-01T11:00:00Z")
      })
    }).pipe(Effect.provide(engine))
  )

  it.effect("archiving is idempotent; an archived tool no longer changes; lists filter by status", () =>
    Effect.gen(function* () {
      yield* setNow("2026-05-01T10:00:00Z")
      const organization = yield* Fixtures.organization()
      const tools = yield* Tools
      const kept = yield* tools.create(organization.id, httpTool())
      const tool = yield* tools.create(organization.id, httpTool())
      yield* setNow("2026-05-01T12:00:00Z")
      const archived = yield* tools.archive(organization.id, tool.tool_uuid)
      expect(archived).toMatchObject({ status: "archived", updated_at: new Date("2026-05-01T12:00:00Z") })
      yield* setNow("2026-05-01T13:00:00Z")
      expect(yield* tools.archive(organization.id, tool.tool_uuid)).toEqual(archived)
      const error = yield* Effect.flip(tools.update(organization.id, tool.tool_uuid, { name: "again" }))
      expect(error).toMatchObject({ _tag: "ToolArchived", tool_uuid: tool.tool_uuid })
      const active = yield* tools.list(organization.id, { status: "active" }, firstPage)
      expect(active.items.map((t) => t.tool_uuid)).toEqual([kept.tool_uuid])
      expect((yield* tools.list(organization.id, {}, firstPage)).total_count).toBe(2)
    }).pipe(Effect.provide(engine))
  )

  it.effect("another organization's tool is not found for any operation", () =>
    Effect.gen(function* () {
      const organization = yield* Fixtures.organization()
      const stranger = yield* Fixtures.organization()
      const tools = yield* Tools
      const tool = yield* tools.create(organization.id, httpTool())
      const attempts = [
        tools.get(stranger.id, tool.tool_uuid),
        tools.update(stranger.id, tool.tool_uuid, { name: "mine" }),
        tools.archive(stranger.id, tool.tool_uuid)
      ]
      for (const attempt of attempts) {
        expect(yield* Effect.flip(attempt)).toMatchObject({ _tag: "ToolNotFound", tool_uuid: tool.tool_uuid })
      }
      expect((yield* tools.get(organization.id, tool.tool_uuid)).status).toBe("active")
      expect((yield* tools.list(stranger.id, {}, firstPage)).total_count).toBe(0)
    }).pipe(Effect.provide(engine))
  )
})
