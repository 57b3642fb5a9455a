/** Test support for adapters and embedders: fixtures and the shared storage contract. */
export * as Fixtures from "./Fixtures.js"
export { storeContract } from "./StoreContract.js"
