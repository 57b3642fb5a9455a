/** The preview schema checks (decoded type guard, encode, decode) the ScriptAnalysis tests share. */
import { Schema } from "effect"
import { CallScriptRequest } from "../../src/agents/CallScript.js"

export const isRequest = Schema.is(Schema.typeSchema(CallScriptRequest))

export const encode = Schema.encodeSync(CallScriptRequest)

export const decode = Schema.decodeUnknownSync(CallScriptRequest)
