import { DoNotCallEntry, DoNotCallStore, Page } from "@voice-agent-platform/core"
import { Effect, Layer, Option, Schema } from "effect"
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs"

/** The file's content: every organization's entries. */
const FileContent = Schema.parseJson(
  Schema.Array(
    Schema.Struct({
      ...DoNotCallEntry.DoNotCallEntry.fields,
      created_at: Schema.Date
    })
  )
)

const keyOf = (organizationId: number, phoneNumber: string) => `${organizationId}:${phoneNumber}`

/**
 * A storage adapter of your own for one port: the Do not call list kept in a JSON file (say, a list
 * your compliance team also reads). It implements `DoNotCallStore` and is checked by the same contract
 * suite as the built-in adapters (see the test). Writes go to a temporary file renamed over the old one,
 * so a crash never leaves half a file; one process owns the file.
 */
export const layer = (path: string): Layer.Layer<DoNotCallStore.DoNotCallStore> =>
  Layer.sync(DoNotCallStore.DoNotCallStore, () => {
    const entries = new Map<string, DoNotCallEntry.DoNotCallEntry>()
    if (existsSync(path)) {
      for (const entry of Schema.decodeUnknownSync(FileContent)(readFileSync(path, "utf8"))) {
        entries.set(keyOf(entry.organization_id, entry.phone_number), entry)
      }
    }
    const save = () => {
      writeFileSync(`${path}.tmp`, Schema.encodeSync(FileContent)([...entries.values()]))
      renameSync(`${path}.tmp`, path)
    }
    return DoNotCallStore.DoNotCallStore.of({
      add: (entry) =>
        Effect.sync(() => {
          const key = keyOf(entry.organization_id, entry.phone_number)
          const current = entries.get(key)
          const row = current === undefined ? entry : { ...current, reason: entry.reason }
          entries.set(key, row)
          save()
          return row
        }),
      find: (organizationId, phoneNumber) =>
        Effect.sync(() => Option.fromNullable(entries.get(keyOf(organizationId, phoneNumber)))),
      listedAmong: (organizationId, phoneNumbers) =>
        Effect.sync(() => new Set(phoneNumbers.filter((n) => entries.has(keyOf(organizationId, n))))),
      remove: (organizationId, phoneNumber) =>
        Effect.sync(() => {
          const removed = entries.delete(keyOf(organizationId, phoneNumber))
          if (removed) save()
          return removed
        }),
      list: (organizationId, page) =>
        Effect.sync(() =>
          Page.slice(
            [...entries.values()]
              .filter((entry) => entry.organization_id === organizationId)
              .sort((a, b) => b.created_at.getTime() - a.created_at.getTime()),
            page
          )
        )
    })
  })
