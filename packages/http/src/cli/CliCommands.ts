import { SqlClient } from "@effect/sql"
import {
  ApiKey,
  ApiKeyStore,
  Money,
  Organization,
  OrganizationErrors,
  Organizations,
  OrganizationStore,
  PhoneNumbers,
  Usage
} from "@voice-agent-platform/core"
import { Migrations } from "@voice-agent-platform/pg"
import { Effect, Either, Option } from "effect"
import type { Command } from "./CliArguments.js"
import * as CliStorage from "./CliStorage.js"

/** What a command answers: the value printed with `--json`, and the lines printed otherwise. */
export interface Answer {
  readonly json: unknown
  readonly text: ReadonlyArray<string>
}

/** A command that ran but could not do what it was asked (exit code 1). */
export class CommandFailed {
  readonly _tag = "CommandFailed"
  constructor(readonly message: string) {}
}

const organizationJson = (organization: Organization.Organization) => ({
  organization_id: organization.id,
  name: organization.name,
  outbound_channels: organization.outbound_channels,
  recording_retention_days: organization.recording_retention_days,
  balance_pln: Money.toDecimal(organization.balance),
  created_at: organization.created_at.toISOString()
})

const organizationLine = (o: ReturnType<typeof organizationJson>) =>
  `${o.organization_id}  ${o.name}  channels ${o.outbound_channels}  retention ${o.recording_retention_days ?? "none"}  balance ${o.balance_pln.toFixed(2)} PLN  created ${o.created_at}`

const keyJson = (key: ApiKey.ApiKey) => ({
  api_key_id: key.id,
  organization_id: key.organization_id,
  name: key.name,
  key_prefix: key.key_prefix,
  created_at: key.created_at.toISOString(),
  last_used_at: key.last_used_at?.toISOString() ?? null,
  revoked_at: key.revoked_at?.toISOString() ?? null
})

const orgId = (id: number) => Organization.OrganizationId.make(id)

/** The most organizations `org list` prints. */
export const maxListed = 10_000

const notFound = (error: OrganizationErrors.OrganizationNotFound) => new CommandFailed(error.message)

/** Runs a command against the configured database. */
export const run = (
  command: Exclude<Command, { _tag: "Help" }>
): Effect.Effect<Answer, CommandFailed | unknown> => {
  switch (command._tag) {
    case "Migrate":
      return Effect.map(Effect.provide(Migrations.run, CliStorage.database), (applied) => ({
        json: { applied: applied.map(([id, name]) => ({ version: id, name })) },
        text:
          applied.length === 0
            ? ["The schema is up to date: nothing to apply."]
            : applied.map(([id, name]) => `applied ${id} ${name}`)
      }))
    case "OrgCreate":
      return Effect.gen(function* () {
        const { organization, key } = yield* (yield* Organizations.Organizations).create({
          name: command.name,
          ...(command.channels === undefined ? {} : { outbound_channels: command.channels })
        })
        return {
          json: { ...organizationJson(organization), api_key_id: key.api_key_id, api_key: key.api_key },
          text: [
            `Created organization ${organization.id} (${organization.name}) with this API key (shown once, keep it safe):`,
            "",
            `  ${key.api_key}`
          ]
        }
      }).pipe(Effect.provide(CliStorage.engine))
    case "OrgList":
      return Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const store = yield* OrganizationStore.OrganizationStore
        const rows = yield* sql<{
          id: number | string
        }>`SELECT id FROM organizations ORDER BY created_at, id LIMIT ${maxListed}`
        const found = yield* Effect.forEach(rows, (row) => store.find(orgId(Number(row.id))))
        const organizations = found.flatMap((o) => (Option.isSome(o) ? [organizationJson(o.value)] : []))
        return {
          json: { organizations },
          text: organizations.length === 0 ? ["No organizations yet."] : organizations.map(organizationLine)
        }
      }).pipe(Effect.provide(CliStorage.engine))
    case "OrgSet":
      return Effect.gen(function* () {
        const organization = yield* (yield* Organizations.Organizations)
          .update(orgId(command.organizationId), {
            ...(command.name === undefined ? {} : { name: command.name }),
            ...(command.channels === undefined ? {} : { outbound_channels: command.channels }),
            ...(command.retentionDays === undefined
              ? {}
              : { recording_retention_days: command.retentionDays })
          })
          .pipe(Effect.mapError(notFound))
        const json = organizationJson(organization)
        return { json, text: [organizationLine(json)] }
      }).pipe(Effect.provide(CliStorage.engine))
    case "KeysCreate":
      return Effect.gen(function* () {
        const key = yield* (yield* Organizations.Organizations)
          .issueKey(orgId(command.organizationId))
          .pipe(Effect.mapError(notFound))
        return {
          json: { organization_id: command.organizationId, api_key_id: key.api_key_id, api_key: key.api_key },
          text: [
            `New API key ${key.api_key_id} for organization ${command.organizationId} (shown once):`,
            "",
            `  ${key.api_key}`
          ]
        }
      }).pipe(Effect.provide(CliStorage.engine))
    case "KeysList":
      return Effect.gen(function* () {
        const organization = yield* (yield* OrganizationStore.OrganizationStore).find(
          orgId(command.organizationId)
        )
        if (Option.isNone(organization)) {
          return yield* Effect.fail(new CommandFailed(`Organization ${command.organizationId} not found`))
        }
        const keys = (yield* (yield* ApiKeyStore.ApiKeyStore).list(orgId(command.organizationId))).map(
          keyJson
        )
        return {
          json: { keys },
          text: keys.map(
            (k) =>
              `${k.api_key_id}  ${k.key_prefix}…  ${k.name}  created ${k.created_at}  last used ${k.last_used_at ?? "never"}  ${k.revoked_at === null ? "active" : `revoked ${k.revoked_at}`}`
          )
        }
      }).pipe(Effect.provide(CliStorage.engine))
    case "KeysRevoke":
      return Effect.gen(function* () {
        const revoked = yield* (yield* Organizations.Organizations).revokeKey(
          ApiKey.ApiKeyId.make(command.keyId)
        )
        if (!revoked) return yield* Effect.fail(new CommandFailed(`API key ${command.keyId} not found`))
        return {
          json: { api_key_id: command.keyId, revoked: true },
          text: [`Revoked API key ${command.keyId}.`]
        }
      }).pipe(Effect.provide(CliStorage.engine))
    case "BalanceTopUp":
      return Effect.gen(function* () {
        const amount = Money.fromDecimal(command.amount)
        if (Either.isLeft(amount)) return yield* Effect.fail(new CommandFailed(amount.left.message))
        const organization = yield* (yield* Organizations.Organizations)
          .topUp(orgId(command.organizationId), amount.right)
          .pipe(Effect.mapError(notFound))
        const json = organizationJson(organization)
        return {
          json,
          text: [`Balance of organization ${json.organization_id}: ${json.balance_pln.toFixed(2)} PLN`]
        }
      }).pipe(Effect.provide(CliStorage.engine))
    case "NumbersAdd":
      return Effect.gen(function* () {
        const number = yield* (yield* PhoneNumbers.PhoneNumbers)
          .addToInventory({ number: command.number, number_type: command.numberType })
          .pipe(Effect.mapError((error) => new CommandFailed(error.message)))
        const json = {
          id: number.id,
          number: number.number,
          number_type: number.number_type,
          status: number.status,
          created_at: number.created_at.toISOString()
        }
        return { json, text: [`Added ${json.number} (${json.number_type}) to the inventory as ${json.id}.`] }
      }).pipe(Effect.provide(CliStorage.engine))
    case "Usage":
      return Effect.gen(function* () {
        const organization = yield* (yield* OrganizationStore.OrganizationStore).find(
          orgId(command.organizationId)
        )
        if (Option.isNone(organization)) {
          return yield* Effect.fail(new CommandFailed(`Organization ${command.organizationId} not found`))
        }
        const summary = yield* (yield* Usage.Usage)
          .summary(orgId(command.organizationId), { from: command.from, to: command.to })
          .pipe(Effect.mapError((error) => new CommandFailed(error.message)))
        const json = {
          organization_id: command.organizationId,
          from: summary.period.from.toISOString(),
          to: summary.period.to.toISOString(),
          calls: summary.totals.calls,
          minutes: Math.round((summary.totals.duration_seconds / 60) * 100) / 100,
          cost_pln: Money.toDecimal(summary.totals.cost)
        }
        return {
          json,
          text: [
            `Organization ${json.organization_id}, ${json.from} to ${json.to}: ${json.calls} calls, ${json.minutes} minutes, ${json.cost_pln.toFixed(2)} PLN`
          ]
        }
      }).pipe(Effect.provide(CliStorage.engine))
  }
}
