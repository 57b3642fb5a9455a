import * as MemoryBlobStore from "../../src/memory/MemoryBlobStore.js"
import { blobStoreContract } from "../../testing/BlobStoreContract.js"

blobStoreContract("in memory", MemoryBlobStore.layer)
