/** Test support for adapters and embedders: fixtures and the shared storage contract. */
export * as Fixtures from "./Fixtures.js"
export { blobStoreContract } from "./BlobStoreContract.js"
export { storeContract } from "./StoreContract.js"
