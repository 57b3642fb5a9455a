// How the tests load the workspace's packages, and the build that keeps their compiled form current.
//
// `npm test` (`vitest run`, or a run that is not watching: CI set, no terminal) loads the packages a project depends on compiled:
// their `dist`, which Node imports itself. From source, vitest's main process transformed every module
// of the workspace and sent it to every test file's process, one request a module (core alone has over
// 300): a third of CI's time went there, the test processes mostly waiting on that one thread. A
// project's own package stays source, whether its tests import its files relatively or by the package's
// name (one copy of each module, so `instanceof` holds). `dist` is made current first by `setup` below,
// the build `npm start` runs (packages/http/scripts/build-when-changed.js: only when a source changed,
// never two builds at once in one checkout).
//
// Watch mode (`npm run test:watch`) and VAP_TEST_SOURCES=1 load every package from source, so an edit to
// any package is what the next run tests without a build. docs/decisions.md, "The tests load the packages
// compiled", says more.
import { execFile } from "node:child_process"
import { readFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { defaultClientConditions, defaultServerConditions } from "vite"

/** The export condition under which the workspace's packages give their TypeScript sources. */
const sourceCondition = "@voice-agent-platform/source"
const root = dirname(fileURLToPath(import.meta.url))

/**
 * Whether vitest watches: vitest's own rule (`run` or `--run` does not, `watch`, `dev` or `--watch` does,
 * otherwise it watches unless CI is set (any value, as the browser checks read it) or there is no terminal).
 */
const watching = (() => {
  const words = process.argv.slice(2)
  if (["watch", "dev", "--watch", "-w"].some((word) => words.includes(word))) return true
  if (words.includes("run") || words.includes("--run")) return false
  return process.env.CI === undefined && process.stdin.isTTY === true
})()
/** Whether this run loads every package from source (watch mode, or asked for). */
export const fromSource = process.env.VAP_TEST_SOURCES === "1" || watching

/**
 * Resolves the project's own package's name to its sources (the entry of its `exports` under the source
 * condition), so that a test importing `@voice-agent-platform/<own>/testing` gets the same modules as one
 * importing `../src/…`.
 */
const ownPackageFromSource = (own) => {
  const directory = join(root, "packages", own)
  const name = `@voice-agent-platform/${own}`
  const exportsMap = JSON.parse(readFileSync(join(directory, "package.json"), "utf8")).exports
  const entries = Object.entries(exportsMap).flatMap(([key, targets]) =>
    typeof targets === "object" && typeof targets[sourceCondition] === "string"
      ? [[key, targets[sourceCondition]]]
      : []
  )
  const resolve = (subpath) => {
    for (const [key, target] of entries) {
      if (key === subpath) return join(directory, target)
      const star = key.indexOf("*")
      if (star === -1) continue
      const [before, after] = [key.slice(0, star), key.slice(star + 1)]
      if (subpath.length > key.length - 1 && subpath.startsWith(before) && subpath.endsWith(after)) {
        return join(
          directory,
          target.replace("*", subpath.slice(before.length, subpath.length - after.length))
        )
      }
    }
    return null
  }
  return {
    name: "own-package-from-source",
    enforce: "pre",
    resolveId: (id) =>
      id === name || id.startsWith(`${name}/`) ? resolve(`.${id.slice(name.length)}`) : null
  }
}

/** This file, as a project's first `globalSetup`: the build below runs before the project's tests. */
const workspaceBuild = fileURLToPath(import.meta.url)

/** A project's resolution of the workspace's packages (see the top of this file). */
const resolution = (own) => {
  if (fromSource) {
    return {
      resolve: { conditions: [sourceCondition, ...defaultClientConditions] },
      ssr: { resolve: { conditions: [sourceCondition, ...defaultServerConditions] } },
      plugins: [],
      server: {},
      packages: "source"
    }
  }
  const others = own === undefined ? "[^/]+" : `(?!${own}/)[^/]+`
  const packagesFolder = join(root, "packages").replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
  return {
    resolve: { conditions: [...defaultClientConditions] },
    ssr: { resolve: { conditions: [...defaultServerConditions] } },
    plugins: own === undefined ? [] : [ownPackageFromSource(own)],
    // a string here matches only under node_modules; a RegExp matches the resolved file's path
    server: { deps: { external: [new RegExp(`^${packagesFolder}/${others}/dist/`)] } },
    packages: "compiled"
  }
}

/** Whether `own` depends on another package of the workspace (an example always does). */
const dependsOnOthers = (own) => {
  if (own === undefined) return true
  const manifest = JSON.parse(readFileSync(join(root, "packages", own, "package.json"), "utf8"))
  const names = [manifest.dependencies, manifest.peerDependencies, manifest.devDependencies].flatMap((map) =>
    Object.keys(map ?? {})
  )
  return names.some((name) => name.startsWith("@voice-agent-platform/"))
}

/**
 * A vitest project of the workspace: `own` is the package it tests (none for an example), `test` its own
 * options. It gets the resolution above, `VAP_TEST_PACKAGES` (`compiled` or `source`: a spawned server
 * runs the bundle or the sources), and, when it depends on another package, the build below as its first
 * global setup.
 */
export const workspaceProject = (own, test) => {
  const { packages, server, ...config } = resolution(own)
  return {
    ...config,
    test: {
      ...test,
      server,
      env: { ...test.env, VAP_TEST_PACKAGES: packages },
      globalSetup: [...(dependsOnOthers(own) ? [workspaceBuild] : []), ...[test.globalSetup ?? []].flat()]
    }
  }
}

/**
 * The global setup: `npm start`'s build when a source changed since the last one (a few milliseconds of
 * checking otherwise; 30–40 s from a fresh clone), waiting for a build of the checkout already running.
 * Bounded at 10 minutes. Run whatever the mode, for the console's build and the embedded template; a
 * failed build fails the run unless it loads the sources.
 */
export const setup = async () => {
  const script = join(root, "packages", "http", "scripts", "build-when-changed.js")
  const outcome = await new Promise((resolve) =>
    execFile(process.execPath, [script], { cwd: root, timeout: 600_000 }, (error, stdout, stderr) =>
      resolve({ error, output: `${stdout}${stderr}`.trim() })
    )
  )
  if (outcome.error === null) {
    if (outcome.output !== "") console.log(outcome.output)
    return
  }
  const failure = `the workspace's build failed: ${outcome.error.message}\n${outcome.output}`
  if (fromSource) {
    // from source the tests need only the console's build of it (the http tests' setup makes the embedded
    // template itself): the run goes on with that
    console.warn(`${failure}\n(the tests load the sources: building the console alone)`)
    const console_ = join(root, "packages", "console", "scripts", "build-console.js")
    await new Promise((resolve) =>
      execFile(
        process.execPath,
        [console_, "--if-stale"],
        { cwd: root, timeout: 120_000 },
        (error, stdout, stderr) => {
          if (error !== null)
            console.warn(`the console's build failed too: ${error.message}\n${stdout}${stderr}`)
          resolve(undefined)
        }
      )
    )
    return
  }
  throw new Error(
    `${failure}\n(the tests load the packages compiled; VAP_TEST_SOURCES=1 tests the sources without it)`
  )
}
