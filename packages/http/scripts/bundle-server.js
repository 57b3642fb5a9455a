// Build step (`npm run build`): the bundled server (`npm start`) as one file, dist/bundle/server.cjs, made
// with esbuild from the compiled dist/src/server/main.js. Node then reads one module instead of ~1,500
// (the module loader was most of start-up: 2 s of a 3.5 s start on PostgreSQL on a loaded machine).
// PGlite stays outside: it finds its WebAssembly and data files next to its own module. `npm start` runs
// dist/bundle/start.js (scripts/bundle-start.js), which compiles the bundle with V8's code cache: a later
// start reads the bundle's compiled code instead of compiling 4.4 MB of JavaScript again. The bundle is
// CommonJS because V8's code cache is for scripts (`vm.Script`), not ES modules.
import { build } from "esbuild"
import { access, copyFile, readFile, rm, writeFile } from "node:fs/promises"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { Script } from "node:vm"

const here = (path) => fileURLToPath(new URL(path, import.meta.url))
const outfile = here("../dist/bundle/server.cjs")

// The bundled server serves the console from @voice-agent-platform/console's build, read at run time (not
// bundled): `npm run build` builds it before this step, and a server bundle without it would answer 503 at
// /console, so its absence stops the build here.
const consoleBuild = join(
  dirname(createRequire(import.meta.url).resolve("@voice-agent-platform/console/package.json")),
  "dist/console/manifest.json"
)
await access(consoleBuild).catch(() => {
  throw new Error(
    `the console is not built (${consoleBuild}): run node packages/console/scripts/build-console.js first`
  )
})

await build({
  entryPoints: [here("../dist/src/server/main.js")],
  outfile,
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  external: ["@electric-sql/pglite", "pg-native"],
  // The modules' `import.meta.url` (they find files next to themselves) is the bundle's own.
  define: { "import.meta.url": "__bundleUrl" },
  banner: { js: 'const __bundleUrl = require("node:url").pathToFileURL(__filename).href;' },
  // Stack traces name the compiled files.
  sourcemap: "linked",
  logLevel: "warning"
})

// The bundle's dynamic imports (`await import(`; comments hold other `import(` text) go through start.js's
// `importModule` (see scripts/bundle-start.js).
const bundled = await readFile(outfile, "utf8")
const dynamicImport = /\bawait import\(/g
const rewritten = bundled.replace(dynamicImport, "await importModule(")
if (bundled.match(dynamicImport)?.length !== 2)
  throw new Error(
    "expected the bundle's two dynamic imports (PGlite, the docs page's script): check the rewrite"
  )
new Script(`(function (importModule) {${rewritten}\n})`, { filename: outfile }) // still valid JavaScript
await writeFile(outfile, rewritten)
await copyFile(here("bundle-start.js"), here("../dist/bundle/start.js"))
// The ES module bundle earlier builds made (server.js): a checkout built before keeps no stale server.
await rm(here("../dist/bundle/server.js"), { force: true })
await rm(here("../dist/bundle/server.js.map"), { force: true })
