import { HttpApiGroup } from "@effect/platform"
import { Authentication } from "../middleware/Authentication.js"

/** Knowledge-base documents: upload, processing, chunks, search. */
export class KnowledgeBaseApi extends HttpApiGroup.make("knowledgeBase")
  .middleware(Authentication)
  .prefix("/api/v1") {}
