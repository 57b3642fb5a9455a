import { Layer } from "effect"
import * as Agents from "./agents/Agents.js"
import type { Telephony } from "./calls/Telephony.js"
import * as CallEvents from "./calls/CallEvents.js"
import * as Campaigns from "./campaigns/Campaigns.js"
import * as CallReclaim from "./calls/CallReclaim.js"
import * as CallPlacement from "./calls/CallPlacement.js"
import * as ChatEnds from "./chat/ChatEnds.js"
import * as ChatTurns from "./chat/ChatTurns.js"
import * as DoNotCallList from "./do-not-call/DoNotCallList.js"
import type { BlobStore } from "./files/BlobStore.js"
import type { LanguageModel } from "./language-model/LanguageModel.js"
import * as RetentionSweep from "./files/RetentionSweep.js"
import * as Improvements from "./improvements/Improvements.js"
import * as Integrations from "./integrations/Integrations.js"
import * as KnowledgeBase from "./knowledge-base/KnowledgeBase.js"
import * as ApiKeys from "./organizations/ApiKeys.js"
import * as ApiKeyUse from "./organizations/ApiKeyUse.js"
import * as Organizations from "./organizations/Organizations.js"
import * as PhoneNumbers from "./phone-numbers/PhoneNumbers.js"
import * as RuntimeCalls from "./calls/RuntimeCalls.js"
import type { PriceListConfig } from "./phone-numbers/PriceListConfig.js"
import type { SecureRandom } from "./randomness/SecureRandom.js"
import * as Runs from "./runs/Runs.js"
import type { Stores } from "./storage/Stores.js"
import * as Credentials from "./tools/Credentials.js"
import * as Tools from "./tools/Tools.js"
import * as Transcripts from "./transcripts/Transcripts.js"
import * as Triggers from "./triggers/Triggers.js"
import * as Usage from "./usage/Usage.js"
import * as Webhooks from "./webhooks/Webhooks.js"

/** Every domain service. */
export type Services =
  | Agents.Agents
  | ApiKeys.ApiKeys
  | ApiKeyUse.ApiKeyUse
  | CallEvents.CallEvents
  | CallReclaim.CallReclaim
  | CallPlacement.CallPlacement
  | Campaigns.Campaigns
  | ChatEnds.ChatEnds
  | ChatTurns.ChatTurns
  | DoNotCallList.DoNotCallList
  | Improvements.Improvements
  | Integrations.Integrations
  | KnowledgeBase.KnowledgeBase
  | Credentials.Credentials
  | Tools.Tools
  | Organizations.Organizations
  | PhoneNumbers.PhoneNumbers
  | RetentionSweep.RetentionSweep
  | Runs.Runs
  | RuntimeCalls.RuntimeCalls
  | Transcripts.Transcripts
  | Triggers.Triggers
  | Usage.Usage
  | Webhooks.Webhooks

/** What the services need from the host: storage, files, telephony, randomness and prices. */
export type Ports = Stores | BlobStore | Telephony | SecureRandom | PriceListConfig

/**
 * The services and everything they run on, and the language model conversations and analyses ask
 * (the embedded rule-based stand-in unless the host gives another): what an API or an application can ask for.
 */
export type Engine = Services | Ports | LanguageModel

/** Every domain service, wired over whatever storage, files, telephony and configuration the host provides. */
export const layer: Layer.Layer<Services, never, Ports> = Layer.mergeAll(
  ApiKeys.layer,
  ApiKeyUse.layer,
  CallEvents.layer,
  // a call the runtime refused ends through CallEvents, like every other end
  CallPlacement.layer.pipe(Layer.provide(CallEvents.layer)),
  Campaigns.layer,
  DoNotCallList.layer,
  Improvements.layer,
  Integrations.layer,
  KnowledgeBase.layer,
  Credentials.layer,
  Tools.layer,
  Organizations.layer,
  PhoneNumbers.layer,
  RetentionSweep.layer,
  RuntimeCalls.layer,
  // Transcripts is stateless: Runs reads through its own instance
  Runs.layer.pipe(Layer.provide(Transcripts.layer)),
  Transcripts.layer,
  Usage.layer,
  Webhooks.layer
).pipe(
  Layer.provideMerge(Agents.layer),
  // triggers place their calls through CallPlacement
  (services) => Layer.provideMerge(Triggers.layer, services),
  // overdue calls end through the same CallEvents as a runtime's reports
  (services) => Layer.provideMerge(CallReclaim.layer, services),
  // chats end through CallEvents too, holding their turns (one ChatTurns per engine: its locks are shared)
  (services) => Layer.provideMerge(ChatEnds.layer, services),
  Layer.provideMerge(ChatTurns.layer)
)
