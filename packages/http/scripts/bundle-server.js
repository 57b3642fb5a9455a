// Build step (`npm run build`): the bundled server (`npm start`) as one file, dist/bundle/server.js, made
// with esbuild from the compiled dist/src/server/main.js. Node then reads one module instead of ~1,500
// (the module loader was most of start-up: 2 s of a 3.5 s start on PostgreSQL on a loaded machine).
// PGlite stays outside: it finds its WebAssembly and data files next to its own module.
import { build } from "esbuild"
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
