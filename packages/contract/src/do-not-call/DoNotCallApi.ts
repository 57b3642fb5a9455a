import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import * as DoNotCallEntry from "@voice-agent-platform/core/do-not-call/DoNotCallEntry.js"
import * as E164 from "@voice-agent-platform/core/phone-numbers/E164.js"
import { Either, Schema } from "effect"
import { NotFound } from "../errors/ApiErrors.js"
import { Authentication } from "../middleware/Authentication.js"
import { strict } from "../shared/Json.js"
import { PageOf, PageQuery } from "../shared/Pagination.js"
import { Timestamp } from "../shared/Timestamp.js"

/** A number on the organization's Do not call list: the core entry without its organization, dates as ISO text. */
export const DoNotCallEntryResponse = Schema.Struct({
  ...DoNotCallEntry.DoNotCallEntry.pick("phone_number", "reason").fields,
  created_at: Timestamp
}).annotations({ identifier: "DoNotCallEntry" })

/** `POST /do-not-call`. */
export const AddToDoNotCallRequest = strict(
  Schema.Struct({
    phone_number: Schema.String.annotations({
      description:
        "The number in international form (`+48 500 100 200`); stored as E.164. Invalid numbers are a 422."
    }),
    reason: Schema.optionalWith(Schema.NullOr(Schema.String.pipe(Schema.maxLength(1000))), { exact: true })
  }).annotations({ identifier: "AddToDoNotCallRequest" })
)

/** The `{phone_number}` path segment: a URL-encoded number in any valid international format. */
const PhoneNumberParam = Schema.String.pipe(
  Schema.filter((input) => Either.isRight(E164.normalize(input)), {
    message: () => "phone_number must be a valid phone number in international format, e.g. +48500000486",
    // the document takes a refinement's description from its JSON Schema annotation only
    jsonSchema: {
      description: "The number, URL-encoded, in any valid international format (`%2B48500100200`)"
    }
  })
)

/** The organization's Do not call list. */
export class DoNotCallApi extends HttpApiGroup.make("doNotCall")
  .add(
    HttpApiEndpoint.post("add", "/do-not-call")
      .setPayload(AddToDoNotCallRequest)
      .addSuccess(DoNotCallEntryResponse)
      .annotateContext(
        OpenApi.annotations({
          summary: "Add a number to the Do not call list",
          description:
            "Calls to a listed number are refused with 403 (`detail` starts with `do_not_call`), whatever format the call request writes it in. Adding a listed number again keeps it listed (with its first `created_at`) and sets the reason."
        })
      )
  )
  .add(
    HttpApiEndpoint.get("list", "/do-not-call")
      .setUrlParams(PageQuery)
      .addSuccess(PageOf(DoNotCallEntryResponse, "DoNotCallPage"))
      .annotateContext(
        OpenApi.annotations({
          summary: "List the Do not call list",
          description: "The organization's listed numbers, newest first."
        })
      )
  )
  .add(
    HttpApiEndpoint.del("remove", "/do-not-call/:phone_number")
      .setPath(Schema.Struct({ phone_number: PhoneNumberParam }))
      .addSuccess(HttpApiSchema.NoContent)
      .addError(NotFound)
      .annotateContext(
        OpenApi.annotations({
          summary: "Remove a number from the Do not call list",
          description: "Takes the number off the list, so it can be called again; 404 when it is not listed."
        })
      )
  )
  .middleware(Authentication)
  .prefix("/api/v1") {}
