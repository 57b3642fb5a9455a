/** Test support for adapters and embedders: fixtures, the shared storage contract and the language model contract. */
export * as Fixtures from "./Fixtures.js"
export { blobStoreContract } from "./BlobStoreContract.js"
export { storeContract } from "./StoreContract.js"
export {
  languageModelContract,
  type LanguageModelContractOptions,
  type Prepared,
  type Provocation,
  provocations
} from "./LanguageModelContract.js"
export { phrases, speechToTextContract, type SpeechToTextContractOptions } from "./SpeechToTextContract.js"
export { eventually, eventuallyDefined, type EventuallyOptions } from "./Eventually.js"
export * as CallingClock from "./CallingClock.js"
