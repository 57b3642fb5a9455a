/**
 * The test projects: every package and example with tests, each with its own vitest.config.ts. The root
 * vitest.config.ts reads this list into `test.projects` (vitest 3's place for it; a workspace file it
 * would load on its own is deprecated, and is not loaded when `test.projects` is set).
 */
export default ["packages/*", "examples/*"]
