// `npm run generate:console-types`: writes src/api/Schema.d.ts from the API's OpenAPI document.
import { writeFile } from "node:fs/promises"
import { generate, schemaFile } from "./SchemaTypes.js"

await writeFile(schemaFile, await generate())
console.log(`wrote ${schemaFile}`)
