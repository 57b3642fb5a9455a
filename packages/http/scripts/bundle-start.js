// What `npm start` runs (copied to dist/bundle/start.js by scripts/bundle-server.js): the bundled server,
// dist/bundle/server.cjs, compiled with V8's code cache. Node 20 has no compile cache of its own
// (`module.enableCompileCache` is Node 22.1+), and compiling the 4.4 MB bundle was ~0.1 s of every start's
// processor time; this does what Node's cache does, on every Node version: the first start after a build
// writes the compiled code (the bundle's top level and every function its evaluation compiled) beside
// Node's own cache (NODE_COMPILE_CACHE, or node-compile-cache in the system's temporary directory), and
// later starts read it. The file is named by the SHA-1 of the bundle and its path, and the Node version (code
// compiled from cached data keeps the file name it was first compiled with: a copy of the same bundle in
// another directory would name the first copy's path in its stack traces); V8 refuses data made by another
// V8 or other flags (then the bundle is compiled as usual and the file written again). A cache
// that cannot be read or written only costs the compilation.
import { createHash } from "node:crypto"
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { Script } from "node:vm"

const filename = fileURLToPath(new URL("./server.cjs", import.meta.url))
const source = readFileSync(filename, "utf8")
const digest = createHash("sha1").update(filename).update("\0").update(source).digest("hex")
const cacheDirectory = process.env.NODE_COMPILE_CACHE || join(tmpdir(), "node-compile-cache")
const cacheFile = join(cacheDirectory, `vap-server-${process.version}-${process.arch}-${digest}.v8`)

/** The cached code for this bundle, if a start wrote it. */
const readCache = () => {
  try {
    return readFileSync(cacheFile)
  } catch {
    return undefined
  }
}

const cachedData = readCache()
// CommonJS's wrapper on the bundle's first line (its line numbers stay the source map's), plus the
// bundle's dynamic `import()`: a script compiled from cached data loses Node 20's import callback, so the
// bundle imports (PGlite, the docs page's script) through this module's.
const script = new Script(
  `(function (exports, require, module, __filename, __dirname, importModule) {${source}\n})`,
  { filename, cachedData }
)
const module = { exports: {} }
script.runInThisContext()(
  module.exports,
  createRequire(filename),
  module,
  filename,
  dirname(filename),
  (specifier) => import(specifier)
)

// Written once the bundle is evaluated: before the embedded database changes V8's flags (its WebAssembly
// tiering budget), which would make V8 refuse the data at the next start.
if (cachedData === undefined || script.cachedDataRejected === true) {
  try {
    mkdirSync(cacheDirectory, { recursive: true })
    const partial = `${cacheFile}.${process.pid}`
    writeFileSync(partial, script.createCachedData())
    renameSync(partial, cacheFile)
  } catch {
    // Not cached: the next start compiles the bundle again.
  }
}
