import { KnowledgeBase, OperationSpans } from "@voice-agent-platform/core"
import { Effect } from "effect"
import { Api } from "@voice-agent-platform/contract/Api.js"
import * as CoreErrors from "../errors/CoreErrors.js"
import { CurrentOrganization } from "../middleware/Authentication.js"
import { render } from "@voice-agent-platform/contract/shared/Pagination.js"
import { chunkResponse, documentResponse, searchResult } from "./KnowledgeBaseResponses.js"
import * as UploadForm from "./UploadForm.js"
import * as CapturedGroups from "../direct/CapturedGroups.js"

/** Handlers of the knowledgeBase group. */
export const KnowledgeBaseHandlers = CapturedGroups.group(Api, "knowledgeBase", (handlers) =>
  Effect.gen(function* () {
    const knowledgeBase = yield* KnowledgeBase.KnowledgeBase
    return handlers
      .handle(
        "upload",
        OperationSpans.fn("KnowledgeBase.upload")(function* ({ payload }) {
          const organization = yield* CurrentOrganization
          const form = yield* UploadForm.read(payload, knowledgeBase.maxFileBytes)
          const document = yield* knowledgeBase
            .upload(organization.id, {
              filename: form.file.name,
              mime_type: form.file.content_type,
              bytes: form.file.bytes,
              custom_metadata: form.custom_metadata,
              source_url: form.source_url
            })
            .pipe(Effect.mapError(CoreErrors.toHttp))
          return documentResponse(document)
        })
      )
      .handle(
        "list",
        OperationSpans.fn("KnowledgeBase.list")(function* ({ urlParams }) {
          const organization = yield* CurrentOrganization
          return render(yield* knowledgeBase.list(organization.id, urlParams), documentResponse)
        })
      )
      .handle(
        "get",
        OperationSpans.fn("KnowledgeBase.get")(function* ({ path }) {
          const organization = yield* CurrentOrganization
          return documentResponse(yield* knowledgeBase.get(organization.id, path.document_id))
        }, Effect.mapError(CoreErrors.toHttp))
      )
      .handle(
        "chunks",
        OperationSpans.fn("KnowledgeBase.chunks")(function* ({ path, urlParams }) {
          const organization = yield* CurrentOrganization
          const { document, page } = yield* knowledgeBase.chunks(organization.id, path.document_id, urlParams)
          return render(page, chunkResponse(document))
        }, Effect.mapError(CoreErrors.toHttp))
      )
      .handle(
        "delete",
        OperationSpans.fn("KnowledgeBase.delete")(function* ({ path }) {
          const organization = yield* CurrentOrganization
          yield* knowledgeBase.remove(organization.id, path.document_id)
        }, Effect.mapError(CoreErrors.toHttp))
      )
      .handle(
        "search",
        OperationSpans.fn("KnowledgeBase.search")(function* ({ payload }) {
          const organization = yield* CurrentOrganization
          const hits = yield* knowledgeBase.search(organization.id, payload.query, payload.limit)
          return { query: payload.query, results: hits.map(searchResult) }
        })
      )
  })
)
