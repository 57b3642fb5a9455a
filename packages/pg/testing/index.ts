export * as TestDatabase from "./TestDatabase.js"
