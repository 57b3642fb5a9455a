// What `npm start` (and `npm run vap`) run first: the build (`npm run build:steps`), but only when the
// sources changed since the last build, and never two builds at once in one checkout. `npm run build` runs
// it with `--always`: it builds whatever the fingerprint says, unless it waited for another build that
// finished meanwhile with these very sources. `--root <directory>` (tests) builds another checkout.
//
// - Up to date: the inputs' fingerprint (every file's path, size and modification time under the packages'
//   sources, scripts and configuration, the root's package.json, lockfile and tsconfig files) equals the one
//   the last successful build wrote, and its outputs are there. Checking takes a few milliseconds, so a start
//   with nothing changed goes straight to the server.
// - Otherwise one start builds, holding a lock (a directory made atomically, `build/start-build.lock`, with
//   the builder's pid); the others wait for it, then check again: the build they waited for is usually the
//   one they needed. A lock whose process is gone is taken over; waiting is bounded (BUILD_WAIT_SECONDS,
//   default 600).
// - The fingerprint is read before the build and written after it succeeds: a file changed during a build
//   makes the next start build again.
import { spawn } from "node:child_process"
import { createHash } from "node:crypto"
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs"
import { join, relative } from "node:path"
import { fileURLToPath } from "node:url"

const rootArgument = process.argv.indexOf("--root")
const root =
  rootArgument === -1 ? fileURLToPath(new URL("../../../", import.meta.url)) : process.argv[rootArgument + 1]
const always = process.argv.includes("--always")
const stateDirectory = join(root, "build")
const stampFile = join(stateDirectory, "start-build.json")
const lockDirectory = join(stateDirectory, "start-build.lock")
const waitSeconds = Number(process.env.BUILD_WAIT_SECONDS ?? 600)

/** What a build makes; a start needs them all, and `npm test` the packages' compiled entries. */
const outputs = [
  "packages/http/dist/bundle/start.js",
  "packages/http/dist/bundle/server.cjs",
  "packages/http/dist/src/cli/main.js",
  "packages/console/dist/console/manifest.json",
  ...["core", "contract", "pg", "blob-stores", "language-models", "voice"].map(
    (name) => `packages/${name}/dist/src/index.js`
  )
].map((path) => join(root, path))

/** Folders inside a package that are not a build's input: what it makes, its tests, its dependencies. */
const notInputs = new Set(["node_modules", "dist", "build", "test", "coverage", ".data"])

/** Every input file of a build, relative to the root, in a stable order. */
const inputFiles = () => {
  const files = []
  const walk = (directory) => {
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      if (entry.name.startsWith(".") || notInputs.has(entry.name)) continue
      const path = join(directory, entry.name)
      if (entry.isDirectory()) walk(path)
      else if (entry.isFile() && !entry.name.endsWith(".tsbuildinfo")) files.push(path)
    }
  }
  walk(join(root, "packages"))
  for (const name of readdirSync(root)) {
    if (name === "package.json" || name === "package-lock.json" || /^tsconfig.*\.json$/.test(name)) {
      files.push(join(root, name))
    }
  }
  return files.map((path) => relative(root, path)).sort()
}

/** A digest of every input's path, size and modification time. */
const fingerprint = () => {
  const hash = createHash("sha256")
  for (const file of inputFiles()) {
    const stat = statSync(join(root, file))
    hash.update(`${file}\0${stat.size}\0${stat.mtimeMs}\n`)
  }
  return hash.digest("hex")
}

const built = () => {
  try {
    const stamp = JSON.parse(readFileSync(stampFile, "utf8"))
    return stamp.fingerprint === fingerprint() && outputs.every((path) => existsSync(path))
  } catch {
    return false
  }
}

/** Whether a process with this pid is running (a lock left by one that is gone can be taken over). */
const alive = (pid) => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return error.code === "EPERM"
  }
}

/** The pid holding the lock; `undefined` when none is written yet (just taken) or the file is unreadable. */
const lockHolder = () => {
  try {
    const pid = Number(readFileSync(join(lockDirectory, "pid"), "utf8"))
    return Number.isInteger(pid) && pid > 0 ? pid : undefined
  } catch {
    return undefined
  }
}

/** Seconds since a file changed; Infinity when it is gone. */
const age = (path) => {
  try {
    return (Date.now() - statSync(path).mtimeMs) / 1000
  } catch {
    return Infinity
  }
}

/**
 * Takes the lock, or answers false (another build holds it: wait and try again). A lock whose builder is
 * gone (its pid not running, or no pid written 10 s after it was made) is taken over by one waiter: the
 * one that makes the `takeover` claim file (exclusively) and still finds the dead builder's pid there.
 */
const takeLock = () => {
  mkdirSync(stateDirectory, { recursive: true })
  try {
    mkdirSync(lockDirectory)
    writeFileSync(join(lockDirectory, "pid"), String(process.pid))
    return true
  } catch (error) {
    if (error.code !== "EEXIST") throw error
  }
  const holder = lockHolder()
  if (holder === undefined ? age(lockDirectory) < 10 : alive(holder)) return false
  const claim = join(lockDirectory, "takeover")
  try {
    writeFileSync(claim, String(process.pid), { flag: "wx" })
  } catch {
    // another waiter is taking it over (or the lock was just released); a claim left by a waiter that
    // died while taking over is cleared after 30 s
    if (age(claim) > 30 && age(claim) !== Infinity) rmSync(claim, { force: true })
    return false
  }
  if (lockHolder() !== holder) {
    // taken over by another waiter between our reading and our claim
    rmSync(claim, { force: true })
    return false
  }
  writeFileSync(join(lockDirectory, "pid"), String(process.pid))
  rmSync(claim, { force: true })
  return true
}

const releaseLock = () => rmSync(lockDirectory, { recursive: true, force: true })

const runBuild = () =>
  new Promise((resolve) => {
    const npm = process.platform === "win32" ? "npm.cmd" : "npm"
    const child = spawn(npm, ["run", "build:steps", "--silent"], { cwd: root, stdio: "inherit" })
    const forward = (signal) => child.kill(signal)
    process.on("SIGINT", forward)
    process.on("SIGTERM", forward)
    child.on("exit", (code, signal) => {
      process.off("SIGINT", forward)
      process.off("SIGTERM", forward)
      resolve(code ?? (signal === null ? 1 : 128))
    })
  })

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

const main = async () => {
  if (!always && built()) return 0
  const deadline = Date.now() + waitSeconds * 1000
  let waited = false
  while (!takeLock()) {
    if (!waited) console.log("waiting for another build of this checkout to finish")
    waited = true
    if (Date.now() > deadline) {
      console.error(`another start has been building for over ${waitSeconds} s (${lockDirectory}); giving up`)
      return 1
    }
    await sleep(250)
  }
  try {
    if ((!always || waited) && built()) return 0
    const before = fingerprint()
    const code = await runBuild()
    if (code === 0) writeFileSync(stampFile, JSON.stringify({ fingerprint: before, built_at: new Date() }))
    return code
  } finally {
    releaseLock()
  }
}

process.exitCode = await main()
