// Build step (`npm run build`): makes the embedded database's template data directory
// (dist/embedded-template, see src/connection/EmbeddedTemplate.ts) unless a current one is there, so a new
// embedded data directory is a copy instead of an initdb. Runs after `tsc -b` (it imports the compiled code).
import { ensure, defaultLocation } from "../dist/src/connection/EmbeddedTemplate.js"

const started = performance.now()
const done = await ensure()
if (done === "made")
  console.log(
    `embedded database template made in ${((performance.now() - started) / 1000).toFixed(1)} s: ${defaultLocation()}`
  )
