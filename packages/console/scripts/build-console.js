// Builds the console (`npm run build` runs it, and `npm test` through npm start's build when a source changed):
// esbuild bundles src/main.tsx and its stylesheet into content-hashed files under dist/console/assets/ (each
// screen a chunk of its own, loaded when first shown), writes dist/console/index.html naming them and
// dist/console/manifest.json listing every file the server may serve, and fails when the JavaScript of the
// first screen (the entry, what it imports, and the overview screen shown after signing in) is over the
// budget of 80 KB gzipped. `--if-stale` builds only when a source is newer than the manifest (`npm pack`'s
// prepack: right after a build, packing rebuilds nothing that a running test server reads).
import { build } from "esbuild"
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises"
import { dirname, join, relative } from "node:path"
import { fileURLToPath } from "node:url"
import { gzipSync } from "node:zlib"

const packageDirectory = fileURLToPath(new URL("..", import.meta.url))
const sources = join(packageDirectory, "src")
/** Where the built console is: index.html, manifest.json and assets/. */
export const outputDirectory = join(packageDirectory, "dist", "console")
/** The budget of the issue: the first screen's JavaScript, gzipped. */
export const budgetBytes = 80 * 1024
/** The screen shown first after signing in, counted in the first screen's JavaScript. */
const landingScreen = "src/screens/overview/OverviewScreen.tsx"

const contentTypes = { ".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8" }

/** The newest modification time of the files under a directory (0 when there are none). */
const newest = async (directory) => {
  let latest = 0
  for (const entry of await readdir(directory, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue
    const { mtimeMs } = await stat(join(entry.parentPath ?? entry.path, entry.name))
    latest = Math.max(latest, mtimeMs)
  }
  return latest
}

/** Whether the built console is older than its sources, this script or the package's manifest (or missing). */
export const isStale = async () => {
  let built
  try {
    built = (await stat(join(outputDirectory, "manifest.json"))).mtimeMs
  } catch {
    return true
  }
  const inputs = Math.max(
    await newest(sources),
    (await stat(fileURLToPath(import.meta.url))).mtimeMs,
    (await stat(join(packageDirectory, "package.json"))).mtimeMs
  )
  return inputs > built
}

/** The page that loads the console: its stylesheet, its entry script and the chunks the entry imports. */
const indexHtml = ({ entry, css, preload }) => `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="referrer" content="no-referrer" />
    <title>Voice Agent Platform console</title>
    <link rel="icon" href="data:," />
${css.map((file) => `    <link rel="stylesheet" href="${file}" />`).join("\n")}
${preload.map((file) => `    <link rel="modulepreload" href="${file}" />`).join("\n")}
    <script type="module" src="${entry}"></script>
  </head>
  <body>
    <div id="app"></div>
    <noscript>The console needs JavaScript.</noscript>
  </body>
</html>
`

/** Builds the console into dist/console (replaced whole once the new one is complete); answers its manifest. */
export const buildConsole = async ({ log = console.log } = {}) => {
  const staging = join(packageDirectory, "dist", `.console-${process.pid}`)
  await rm(staging, { recursive: true, force: true })
  const result = await build({
    absWorkingDir: packageDirectory,
    entryPoints: { main: "src/main.tsx" },
    outdir: join(staging, "assets"),
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "browser",
    target: ["es2022"],
    jsx: "automatic",
    jsxImportSource: "preact",
    minify: true,
    entryNames: "[name]-[hash]",
    chunkNames: "chunk-[hash]",
    assetNames: "[name]-[hash]",
    charset: "utf8",
    metafile: true,
    logLevel: "warning"
  })
  const outputs = result.metafile.outputs
  /** An output's address relative to index.html (`assets/main-….js`). */
  const name = (output) => relative(staging, join(packageDirectory, output)).split("\\").join("/")
  const entryOutput = Object.keys(outputs).find((output) => outputs[output].entryPoint === "src/main.tsx")
  const landingOutput = Object.keys(outputs).find((output) => outputs[output].entryPoint === landingScreen)
  if (entryOutput === undefined || landingOutput === undefined)
    throw new Error("the console's build has no entry or no overview screen chunk")
  /** An output and every chunk it imports statically. */
  const closure = (output, seen = new Set()) => {
    if (seen.has(output)) return seen
    seen.add(output)
    for (const imported of outputs[output].imports)
      if (imported.kind === "import-statement" && !imported.external) closure(imported.path, seen)
    return seen
  }
  const entryClosure = closure(entryOutput)
  const firstScreen = [...closure(landingOutput, new Set(entryClosure))]
  let firstScreenGzip = 0
  for (const output of firstScreen)
    firstScreenGzip += gzipSync(await readFile(join(packageDirectory, output)), { level: 9 }).length

  const files = {}
  for (const output of Object.keys(outputs)) {
    const extension = output.slice(output.lastIndexOf("."))
    const type = contentTypes[extension]
    if (type === undefined)
      throw new Error(`the console's build made a file of an unexpected type: ${output}`)
    files[name(output)] = { type, bytes: outputs[output].bytes }
  }
  const css = outputs[entryOutput].cssBundle === undefined ? [] : [name(outputs[entryOutput].cssBundle)]
  const manifest = {
    entry: name(entryOutput),
    css,
    files,
    firstScreen: { files: firstScreen.map(name).sort(), gzipBytes: firstScreenGzip, budgetBytes }
  }
  const preload = [...entryClosure]
    .filter((output) => output !== entryOutput)
    .map(name)
    .sort()
  await writeFile(join(staging, "index.html"), indexHtml({ entry: manifest.entry, css, preload }))
  await writeFile(join(staging, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`)

  const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`
  log(`console: the first screen's JavaScript is ${kb(firstScreenGzip)} gzipped (budget ${kb(budgetBytes)})`)
  if (firstScreenGzip > budgetBytes) {
    await rm(staging, { recursive: true, force: true })
    throw new Error(
      `the console's first screen is ${kb(firstScreenGzip)} of JavaScript gzipped, over the budget of ${kb(budgetBytes)}: ` +
        "load the new code with its screen (routing/Routes.ts) rather than from main.tsx"
    )
  }
  await mkdir(dirname(outputDirectory), { recursive: true })
  await rm(outputDirectory, { recursive: true, force: true })
  await rename(staging, outputDirectory)
  return manifest
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    if (process.argv.includes("--if-stale") && !(await isStale())) console.log("console: up to date")
    else await buildConsole()
  } catch (error) {
    console.error(error instanceof Error ? error.message : error)
    process.exitCode = 1
  }
}
