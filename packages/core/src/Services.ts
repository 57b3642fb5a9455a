import { Layer } from "effect"
import * as Agents from "./agents/Agents.js"
import * as CallPlacement from "./calls/CallPlacement.js"
import * as Improvements from "./improvements/Improvements.js"
import * as PhoneNumbers from "./phone-numbers/PhoneNumbers.js"
import * as Transcripts from "./transcripts/Transcripts.js"

/** Every domain service, wired over whatever storage, files, telephony and configuration the host provides. */
export const layer = Layer.mergeAll(
  CallPlacement.layer,
  Improvements.layer,
  PhoneNumbers.layer,
  Transcripts.layer
).pipe(Layer.provideMerge(Agents.layer))
