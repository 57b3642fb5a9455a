// The http tests' global setup: the embedded database's template (`EmbeddedTemplate`, what `npm run build`
// makes) is made before any test starts a server on a data directory, unless a current one is there.
// Without it (`npm test` runs without `npm run build`) every such server, in process or spawned, runs
// initdb and the migrations on its new directory: about 5 s of processor time each, dozens of times a run.
// So is the migrated snapshot file (`MigratedSnapshot.ensureFile`) the in-memory test servers open from:
// without it each test process that opens one makes its own the slow way (about 7 s of processor time
// more, and its first such test waits for it), so failing to make it is a warning, not a failed run.
import * as EmbeddedTemplate from "@voice-agent-platform/pg/connection/EmbeddedTemplate.js"
import * as MigratedSnapshot from "@voice-agent-platform/pg/connection/MigratedSnapshot.js"

/** Makes what is missing or behind the code (about 5 s each, at once, once). */
export const setup = async (): Promise<void> => {
  const made = async (what: string, location: string, ensure: () => Promise<"made" | "current">) => {
    const started = performance.now()
    if ((await ensure()) === "made")
      console.log(`${what} made in ${((performance.now() - started) / 1000).toFixed(1)} s: ${location}`)
  }
  await Promise.all([
    made("embedded database template", EmbeddedTemplate.defaultLocation(), () => EmbeddedTemplate.ensure()),
    made("migrated snapshot file", MigratedSnapshot.defaultFileLocation(), () =>
      MigratedSnapshot.ensureFile()
    ).catch((error: unknown) =>
      console.warn(
        `the migrated snapshot file was not made (each test process makes its own): ${String(error)}`
      )
    )
  ])
}
