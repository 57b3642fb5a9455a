// The http tests' global setup: the embedded database's template (`EmbeddedTemplate`, what `npm run build`
// makes) is made before any test starts a server on a data directory, unless a current one is there.
// Without it (`npm test` runs without `npm run build`) every such server, in process or spawned, runs
// initdb and the migrations on its new directory: about 5 s of processor time each, dozens of times a run.
import * as EmbeddedTemplate from "@voice-agent-platform/pg/connection/EmbeddedTemplate.js"

/** Makes the template when it is missing or behind the code's schema versions (about 5 s, once). */
export const setup = async (): Promise<void> => {
  const started = performance.now()
  if ((await EmbeddedTemplate.ensure()) === "made") {
    console.log(
      `embedded database template made in ${((performance.now() - started) / 1000).toFixed(1)} s: ` +
        EmbeddedTemplate.defaultLocation()
    )
  }
}
