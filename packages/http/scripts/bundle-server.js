// Build step (`npm run build`): the bundled server (`npm start`) as one file, dist/bundle/server.js, made
// with esbuild from the compiled dist/src/server/main.js. Node then reads one module instead of ~1,500
// (the module loader was most of start-up: 2 s of a 3.5 s start on PostgreSQL on a loaded machine).
// PGlite stays outside: it finds its WebAssembly and data files next to its own module. `npm start` runs
// dist/bundle/start.js, which turns Node's compile cache on (Node 22.1+; nothing on Node 20) before it
// loads the bundle: a later start reads the bundle's compiled code from the cache instead of compiling
// 7.6 MB of JavaScript again.
import { build } from "esbuild"
import { writeFile } from "node:fs/promises"
import { fileURLToPath } from "node:url"

const here = (path) => fileURLToPath(new URL(path, import.meta.url))

await build({
  entryPoints: [here("../dist/src/server/main.js")],
  outfile: here("../dist/bundle/server.js"),
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  external: ["@electric-sql/pglite", "pg-native"],
  // CommonJS dependencies (pg, ws) call require() for Node's own modules.
  banner: {
    js: 'import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);'
  },
  // Stack traces name the compiled files.
  sourcemap: "linked",
  logLevel: "warning"
})

await writeFile(
  here("../dist/bundle/start.js"),
  `// What \`npm start\` runs (written by scripts/bundle-server.js): Node's compile cache (in the system's temporary
// directory, or NODE_COMPILE_CACHE; Node 22.1+), then the bundled server.
import module from "node:module"
module.enableCompileCache?.()
await import("./server.js")
`
)
