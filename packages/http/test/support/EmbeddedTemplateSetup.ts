// The http tests' global setup, after the workspace's build (vitest.packages.js): the embedded database's
// template (`EmbeddedTemplate`, which that build makes) is there before any test starts a server on a data
// directory (checked again here, and made if it is not current). Without it every such server, in
// process or spawned, runs initdb and the migrations on its new directory: about 5 s of processor time
// each, dozens of times a run. So is the migrated snapshot file (`MigratedSnapshot.ensureFile`) the
// in-memory test servers open from: without it each test process that opens one makes its own the slow
// way (about 7 s of processor time more, and its first such test waits for it), so failing to make it is
// a warning, not a failed run.

/** Makes what is missing or behind the code (about 5 s each, at once, once). */
export const setup = async (): Promise<void> => {
  // imported here, not above: vitest loads every global setup file before running the first one (the
  // build), and the tests load pg compiled, which a fresh clone has not built yet
  const EmbeddedTemplate = await import("@voice-agent-platform/pg/connection/EmbeddedTemplate.js")
  const MigratedSnapshot = await import("@voice-agent-platform/pg/connection/MigratedSnapshot.js")
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
