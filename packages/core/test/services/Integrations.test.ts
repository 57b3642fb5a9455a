import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { IntegrationStore } from "../../src/integrations/IntegrationStore.js"
import { Integrations } from "../../src/integrations/Integrations.js"
import * as OAuthProvidersConfig from "../../src/integrations/OAuthProvidersConfig.js"
import * as Fixtures from "../../testing/Fixtures.js"
import { engine, setNow } from "./Engine.js"

const firstPage = { page: 1, limit: 50 }

describe("Integrations", () => {
  it.effect("creates an enabled connection with a conn_ id and an empty config by default", () =>
    Effect.gen(function* () {
      yield* setNow("2026-05-01T10:00:00Z")
      const organization = yield* Fixtures.organization()
      const integrations = yield* Integrations
      const connection = yield* integrations.create(organization.id, {
        provider: "calendly",
        name: "Bookings"
      })
      expect(connection.id).toMatch(/^conn_[A-Za-z0-9]{20}$/)
      expect(connection).toMatchObject({
        provider: "calendly",
        name: "Bookings",
        config: {},
        enabled: true,
        auth_error: null,
        created_at: new Date("2026-05-01T10:00:00Z"),
        updated_at: new Date("2026-05-01T10:00:00Z")
      })
      expect(yield* integrations.get(organization.id, connection.id)).toEqual(connection)
      expect((yield* integrations.list(organization.id, firstPage)).items).toEqual([connection])
    }).pipe(Effect.provide(engine))
  )

  it.effect("an update leaves omitted fields unchanged, keeps masked secrets and clears auth_error", () =>
    Effect.gen(function* () {
      yield* setNow("2026-05-01T10:00:00Z")
      const organization = yield* Fixtures.organization()
      const integrations = yield* Integrations
      const connection = yield* integrations.create(organization.id, {
        provider: "hubspot",
        name: "CRM",
        config: { access_token: "real", portal: "1" },
        enabled: false
      })
      yield* (yield* IntegrationStore).update(
        organization.id,
        connection.id,
        { auth_error: { code: "expired" } },
        new Date("2026-05-01T10:30:00Z")
      )
      yield* setNow("2026-05-01T11:00:00Z")
      const renamed = yield* integrations.update(organization.id, connection.id, { name: "HubSpot" })
      expect(renamed).toMatchObject({
        name: "HubSpot",
        enabled: false,
        config: { access_token: "real", portal: "1" },
        auth_error: { code: "expired" },
        updated_at: new Date("2026-05-01T11:00:00Z")
      })
      const reconfigured = yield* integrations.update(organization.id, connection.id, {
        config: { access_token: "****", portal: "2" },
        enabled: true
      })
      expect(reconfigured).toMatchObject({
        name: "HubSpot",
        enabled: true,
        config: { access_token: "real", portal: "2" },
        auth_error: null
      })
    }).pipe(Effect.provide(engine))
  )

  it.effect("deletes a connection; another organization's connection is not found", () =>
    Effect.gen(function* () {
      const organization = yield* Fixtures.organization()
      const stranger = yield* Fixtures.organization()
      const integrations = yield* Integrations
      const connection = yield* integrations.create(organization.id, { provider: "google", name: "Calendar" })
      for (const attempt of [
        integrations.get(stranger.id, connection.id),
        integrations.update(stranger.id, connection.id, { name: "mine" }),
        integrations.remove(stranger.id, connection.id)
      ]) {
        expect(yield* Effect.flip(attempt)).toMatchObject({
          _tag: "IntegrationConnectionNotFound",
          connection_id: connection.id
        })
      }
      yield* integrations.remove(organization.id, connection.id)
      expect(yield* Effect.flip(integrations.get(organization.id, connection.id))).toMatchObject({
        _tag: "IntegrationConnectionNotFound"
      })
      expect(yield* Effect.flip(integrations.remove(organization.id, connection.id))).toMatchObject({
        _tag: "IntegrationConnectionNotFound"
      })
    }).pipe(Effect.provide(engine))
  )

  it.effect("lists no configured OAuth provider unless the host configures one", () =>
    Effect.gen(function* () {
      const providers = yield* (yield* Integrations).providers
      expect(providers.map((p) => p.provider)).toEqual([
        "google",
        "microsoft",
        "hubspot",
        "salesforce",
        "calendly"
      ])
      expect(providers.every((p) => !p.configured)).toBe(true)
    }).pipe(Effect.provide(engine))
  )

  it.effect("lists the providers the host configured", () =>
    Effect.gen(function* () {
      const providers = yield* (yield* Integrations).providers
      expect(providers.filter((p) => p.configured).map((p) => p.provider)).toEqual(["google"])
    }).pipe(
      Effect.provide(
        engine.pipe(Layer.provide(OAuthProvidersConfig.layer([{ provider: "google", client_id: "abc" }])))
      )
    )
  )
})
