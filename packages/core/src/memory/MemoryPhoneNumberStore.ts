import { Effect, Layer, Option } from "effect"
import type { NumberRequest, PhoneNumber } from "../phone-numbers/PhoneNumber.js"
import { NumberRequestId, PhoneNumberId } from "../phone-numbers/PhoneNumber.js"
import { PhoneNumberExists } from "../phone-numbers/PhoneNumberErrors.js"
import { PhoneNumberStore } from "../phone-numbers/PhoneNumberStore.js"
import { MemoryDatabase } from "./MemoryDatabase.js"
import { byCreation, organizationTable } from "./OrganizationTable.js"

const heldSince = (n: PhoneNumber) => (n.activated_at ?? n.created_at).getTime()

/** The number inventory, the organizations' numbers and demand requests in memory. */
export const layer: Layer.Layer<PhoneNumberStore, never, MemoryDatabase> = Layer.effect(
  PhoneNumberStore,
  Effect.gen(function* () {
    const db = yield* MemoryDatabase
    // An organization's numbers are listed by when it took them.
    const numbers = organizationTable(db.table<PhoneNumberId, PhoneNumber>("phone_numbers"), {
      at: (n) => n.activated_at ?? n.created_at,
      id: (n) => n.id
    })
    const requests = organizationTable(
      db.table<NumberRequestId, NumberRequest>("number_requests"),
      byCreation
    )
    return {
      addToInventory: (input, now) =>
        db
          .atomically(() => {
            if (numbers.values().some((n) => n.number === input.number && n.status !== "released")) {
              return new PhoneNumberExists({ number: input.number })
            }
            const row: PhoneNumber = {
              ...input,
              id: PhoneNumberId.make(db.nextId("phone_numbers")),
              status: "available",
              organization_id: null,
              activated_at: null,
              released_at: null,
              created_at: now
            }
            numbers.set(row.id, row)
            return row
          })
          .pipe(Effect.flatMap((r) => (r instanceof PhoneNumberExists ? Effect.fail(r) : Effect.succeed(r)))),
      find: (id) => db.atomically(() => Option.fromNullable(numbers.get(id))),
      listOwned: (organizationId, page) => db.atomically(() => numbers.newestPage(organizationId, page)),
      oldestActive: (organizationId) =>
        db.atomically(() =>
          Option.fromNullable(
            numbers
              .values()
              .filter((n) => n.organization_id === organizationId && n.status === "active")
              .sort((a, b) => heldSince(a) - heldSince(b) || a.id - b.id)[0]
          )
        ),
      claim: (organizationId, choice, now) =>
        db.atomically(() => {
          const candidate =
            choice.id !== undefined
              ? numbers.get(choice.id)
              : numbers
                  .values()
                  .filter((n) => n.status === "available" && n.number_type === choice.number_type)
                  .sort((a, b) => a.created_at.getTime() - b.created_at.getTime() || a.id - b.id)[0]
          if (
            candidate === undefined ||
            candidate.status !== "available" ||
            candidate.number_type !== choice.number_type
          ) {
            return Option.none()
          }
          const next: PhoneNumber = {
            ...candidate,
            status: "active",
            organization_id: organizationId,
            activated_at: now
          }
          numbers.set(next.id, next)
          return Option.some(next)
        }),
      release: (organizationId, id, now) =>
        db.atomically(() =>
          numbers.replaceOwn(
            organizationId,
            id,
            (number) => ({ ...number, status: "released", released_at: now }),
            (number) => number.status === "active"
          )
        ),
      insertRequest: (request, now) =>
        db.atomically(() => {
          const row: NumberRequest = {
            ...request,
            id: NumberRequestId.make(db.nextId("number_requests")),
            status: "open",
            created_at: now
          }
          requests.set(row.id, row)
          return row
        }),
      listRequests: (organizationId, page) => db.atomically(() => requests.newestPage(organizationId, page))
    }
  })
)
