import { InMemory } from "../../src/index.js"
import { storeContract } from "../../testing/StoreContract.js"

storeContract("in-memory", InMemory.layerStores)
