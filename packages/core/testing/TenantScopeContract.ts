import type { Stores } from "../src/storage/Stores.js"
import type { Vitest } from "@effect/vitest"
import { describe, expect } from "@effect/vitest"
import { Effect, Option, Redacted, Schema } from "effect"
import { CampaignStore } from "../src/campaigns/CampaignStore.js"
import { IntegrationStore } from "../src/integrations/IntegrationStore.js"
import { DocumentStore } from "../src/knowledge-base/DocumentStore.js"
import { Transactions } from "../src/storage/Transactions.js"
import { CredentialStore } from "../src/tools/CredentialStore.js"
import { ToolDefinition } from "../src/tools/ToolDefinition.js"
import { ToolStore } from "../src/tools/ToolStore.js"
import * as Fixtures from "./Fixtures.js"
import { page, at } from "./ContractFixtures.js"

/** The storage contract for tools, credentials, documents, campaigns and integrations, each scoped to its organization; `storeContract` runs it against every adapter. */
export const tenantScopeContract = (it: Vitest.MethodsNonLive<Stores>) => {
  describe("tools, credentials, documents, campaigns, integrations", () => {
    it.effect("store and scope every record to its organization", () =>
      Effect.gen(function* () {
        const org = yield* Fixtures.organization()
        const other = yield* Fixtures.organization()
        const suffix = yield* Fixtures.unique()

        const tools = yield* ToolStore
        const tool = yield* tools.insert(Fixtures.newEndCallTool(org.id, suffix), at(0))
        expect(Option.isNone(yield* tools.find(other.id, tool.tool_uuid))).toBe(true)
        // a held read answers what a read answers, in a transaction and outside one
        const transactions = yield* Transactions
        expect(yield* transactions.run(tools.findForUpdate(org.id, tool.tool_uuid))).toEqual(
          yield* tools.find(org.id, tool.tool_uuid)
        )
        expect(Option.isNone(yield* tools.findForUpdate(other.id, tool.tool_uuid))).toBe(true)
        // several at once: the organization's own, each once; missing ones and another's left out
        const another = yield* tools.insert(Fixtures.newEndCallTool(org.id, `${suffix}-b`), at(0))
        const theirs = yield* tools.insert(Fixtures.newEndCallTool(other.id, `${suffix}-c`), at(0))
        const many = yield* tools.findMany(org.id, [
          another.tool_uuid,
          "no-such-tool",
          tool.tool_uuid,
          theirs.tool_uuid,
          tool.tool_uuid
        ])
        expect([...many].sort((a, b) => a.tool_uuid.localeCompare(b.tool_uuid))).toEqual(
          [tool, another].sort((a, b) => a.tool_uuid.localeCompare(b.tool_uuid))
        )
        expect(yield* tools.findMany(org.id, [])).toEqual([])
        expect(yield* tools.findMany(other.id, [tool.tool_uuid])).toEqual([])
        // the active tools whose definitions name a credential, oldest first
        const httpTool = (n: number, credentialUuid: string | null) =>
          tools.insert(
            {
              tool_uuid: `tool-${suffix}-http-${n}`,
              organization_id: org.id,
              name: `Lookup ${n}`,
              description: null,
              category: "http_api",
              icon: null,
              icon_color: null,
              status: "active",
              definition: Schema.decodeUnknownSync(ToolDefinition)({
                schema_version: 1,
                type: "http_api",
                config: { method: "GET", url: "https://example.com", credential_uuid: credentialUuid }
              }),
              created_by: null
            },
            at(n)
          )
        const usingA = [yield* httpTool(1, `cred-a-${suffix}`), yield* httpTool(2, `cred-a-${suffix}`)]
        const usingB = yield* httpTool(3, `cred-b-${suffix}`)
        yield* httpTool(4, null)
        expect(yield* tools.activeUsingCredential(org.id, `cred-a-${suffix}`)).toEqual(
          usingA.map((t) => t.tool_uuid)
        )
        expect(yield* tools.activeUsingCredential(other.id, `cred-a-${suffix}`)).toEqual([])
        // a changed definition, and archiving, change what uses what
        yield* tools.update(org.id, usingA[0]!.tool_uuid, { definition: usingB.definition }, at(5))
        yield* tools.update(org.id, usingA[1]!.tool_uuid, { status: "archived" }, at(5))
        expect(yield* tools.activeUsingCredential(org.id, `cred-a-${suffix}`)).toEqual([])
        expect(yield* tools.activeUsingCredential(org.id, `cred-b-${suffix}`)).toEqual([
          usingA[0]!.tool_uuid,
          usingB.tool_uuid
        ])
        for (const t of [usingA[0]!, usingB]) {
          yield* tools.update(org.id, t.tool_uuid, { status: "archived" }, at(6))
        }
        const remaining = yield* tools.list(org.id, { status: "active" }, page(1))
        for (const t of remaining.items)
          yield* tools.update(org.id, t.tool_uuid, { status: "archived" }, at(6))
        const archived = yield* tools.update(org.id, tool.tool_uuid, { status: "archived" }, at(1))
        expect(Option.getOrThrow(archived)).toMatchObject({ status: "archived", updated_at: at(1) })
        expect((yield* tools.list(org.id, { status: "active" }, page(1))).total_count).toBe(0)

        const credentials = yield* CredentialStore
        const credential = yield* credentials.insert({
          credential_uuid: `cred-${suffix}`,
          organization_id: org.id,
          name: "CRM token",
          kind: "bearer",
          header_name: null,
          secret: Redacted.make("s3cret"),
          created_at: at(0)
        })
        const found = Option.getOrThrow(yield* credentials.find(org.id, credential.credential_uuid))
        expect(
          Option.getOrThrow(
            yield* transactions.run(credentials.findForUpdate(org.id, credential.credential_uuid))
          )
        ).toEqual(found)
        expect(Option.isNone(yield* credentials.findForUpdate(other.id, credential.credential_uuid))).toBe(
          true
        )
        expect(Redacted.value(found.secret)).toBe("s3cret")
        expect(yield* credentials.remove(other.id, credential.credential_uuid)).toBe(false)
        expect(yield* credentials.remove(org.id, credential.credential_uuid)).toBe(true)

        const documents = yield* DocumentStore
        const document = yield* documents.insert(
          {
            document_uuid: `doc-${suffix}`,
            organization_id: org.id,
            filename: "faq.md",
            file_size_bytes: 12,
            file_hash: "00",
            mime_type: "text/markdown",
            processing_status: "pending",
            total_chunks: 0,
            custom_metadata: {},
            parser_metadata: {},
            blob_key: `documents/${suffix}`,
            created_by: null,
            is_active: true,
            processing_error: null,
            source_url: null
          },
          at(0)
        )
        expect(
          Option.getOrThrow(yield* documents.find(org.id, { _tag: "Uuid", uuid: document.document_uuid })).id
        ).toBe(document.id)
        expect(Option.isNone(yield* documents.find(other.id, { _tag: "Id", id: document.id }))).toBe(true)
        yield* documents.replaceChunks(org.id, document.id, [
          { document_id: document.id, organization_id: org.id, index: 0, text: "Hello" }
        ])
        expect(yield* documents.chunks(org.id, document.id)).toHaveLength(1)
        expect(yield* documents.chunks(other.id, document.id)).toHaveLength(0)
        yield* documents.remove(org.id, document.id)
        expect(yield* documents.chunks(org.id, document.id)).toHaveLength(0)

        const campaigns = yield* CampaignStore
        const { agent } = yield* Fixtures.agent(org.id)
        const campaign = yield* campaigns.insert(
          Fixtures.newCampaign(org.id, agent.id, { max_attempts: 2, retry_delay_seconds: 600 }),
          at(0)
        )
        const { added: contacts } = yield* campaigns.addContacts(
          org.id,
          campaign.id,
          ["+48500000101", "+48500000102"].map((phone_number) => ({ phone_number, initial_context: {} })),
          at(0)
        )
        expect(
          (yield* campaigns.addContacts(
            other.id,
            campaign.id,
            [{ phone_number: "+48500000103", initial_context: {} }],
            at(0)
          )).added
        ).toEqual([])
        yield* campaigns.updateContact(org.id, contacts[1]!.id, { status: "completed", attempts: 1 })
        const pending = yield* campaigns.listContacts(org.id, campaign.id, { status: "pending" }, page(1))
        expect(pending.items.map((c) => c.phone_number)).toEqual(["+48500000101"])
        expect(Option.isNone(yield* campaigns.find(other.id, campaign.id))).toBe(true)

        const integrations = yield* IntegrationStore
        yield* integrations.insert({
          id: `conn-${suffix}`,
          organization_id: org.id,
          provider: "calendly",
          name: "Calendar",
          config: {},
          enabled: true,
          auth_error: null,
          created_at: at(0),
          updated_at: at(0)
        })
        const renamed = yield* integrations.update(org.id, `conn-${suffix}`, { name: "Bookings" }, at(3))
        expect(Option.getOrThrow(renamed)).toMatchObject({
          name: "Bookings",
          enabled: true,
          updated_at: at(3)
        })
        expect(Option.isNone(yield* integrations.find(other.id, `conn-${suffix}`))).toBe(true)
        expect(yield* transactions.run(integrations.findForUpdate(org.id, `conn-${suffix}`))).toEqual(
          yield* integrations.find(org.id, `conn-${suffix}`)
        )
        expect(Option.isNone(yield* integrations.findForUpdate(other.id, `conn-${suffix}`))).toBe(true)
      })
    )
  })
}
