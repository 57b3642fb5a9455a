// Summarises a `--cpu-prof` profile (e.g. from `BENCH_PROFILE=<dir> npm run bench:http`): self time by
// package (or by file inside this repository) and the heaviest functions. Run:
// `node --import tsx bench/profile-summary.ts <file.cpuprofile>... [top]` (several files, e.g. a glob, are
// summarised one after the other). A frame in the bundled server
// (dist/bundle/server.cjs, what `npm start` runs, or a copy of that folder given as BENCH_ENGINE: any
// `bundle/server.cjs`) is named by the module esbuild put there (its `// path`
// comments), so the bundle's profile reads like the modules' own. PROFILE_ATTRIBUTE=<regexp> (with
// PROFILE_DEPTH) adds the self time of the files it matches by the repository's functions above them.
import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"

interface Node {
  readonly id: number
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number }
  readonly children?: ReadonlyArray<number>
}
const args = process.argv.slice(2)
const profiles = args.filter((arg) => !/^\d+$/.test(arg))
if (profiles.length === 0) throw new Error("usage: profile-summary.ts <file.cpuprofile>... [top]")
const top = Number(args.find((arg) => /^\d+$/.test(arg)) ?? 25)

/** Prints the summary of one profile. */
const summarise = (file: string) => {
  const profile = JSON.parse(readFileSync(file, "utf8")) as {
    readonly nodes: ReadonlyArray<Node>
    readonly samples: ReadonlyArray<number>
    readonly timeDeltas: ReadonlyArray<number>
  }
  /** For a bundle: the line where each module starts and its path, in order. */
  const bundles = new Map<string, ReadonlyArray<readonly [line: number, path: string]>>()
  const modulesOf = (url: string) => {
    let modules = bundles.get(url)
    if (modules === undefined) {
      modules = readFileSync(url.startsWith("file:") ? fileURLToPath(url) : url, "utf8")
        .split("\n")
        .flatMap((line, i) => (/^\/\/ (\S+\.[cm]?js)$/.test(line) ? [[i, line.slice(3)] as const] : []))
      bundles.set(url, modules)
    }
    return modules
  }
  /** The frame's own file: the module of the bundle its line falls in, or its URL. */
  const sourceOf = (url: string, line: number) => {
    if (!url.endsWith("/bundle/server.cjs")) return url
    const modules = modulesOf(url)
    // Before the first module: esbuild's own helpers (CommonJS wrappers, exports).
    if (modules.length === 0 || line < modules[0]![0]) return "/bundle/esbuild-runtime"
    let [low, high] = [0, modules.length - 1]
    while (low < high) {
      const middle = Math.ceil((low + high) / 2)
      if (modules[middle]![0] <= line) low = middle
      else high = middle - 1
    }
    const path = modules[low]![1]
    return path.startsWith("node_modules/") ? `/${path}` : `/${path.replace("/dist/src/", "/src/")}`
  }
  for (const node of profile.nodes)
    (node.callFrame as { url: string }).url = sourceOf(node.callFrame.url, node.callFrame.lineNumber)
  const byId = new Map(profile.nodes.map((node) => [node.id, node]))
  const self = new Map<number, number>()
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)))
  const total = [...self.values()].reduce((a, b) => a + b, 0)

  /** A package name, a file of this repository, or what V8 calls the frame (GC, idle, program). */
  const where = (url: string, name: string) => {
    if (url === "") return `(${name || "native"})`
    const modules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)
    if (modules !== null) return modules[1]!
    if (url.startsWith("node:")) return url
    const repo = /\/(packages\/[^/]+\/src\/.*)$/.exec(url)
    return repo !== null ? repo[1]! : url
  }
  const add = (map: Map<string, number>, key: string, value: number) =>
    map.set(key, (map.get(key) ?? 0) + value)
  const places = new Map<string, number>()
  const functions = new Map<string, number>()
  for (const [id, time] of self) {
    const { callFrame } = byId.get(id)!
    const place = where(callFrame.url, callFrame.functionName)
    add(places, place, time)
    const file = /node_modules\/(.*)$/.exec(callFrame.url)?.[1] ?? place
    add(functions, `${callFrame.functionName || "(anonymous)"} ${file}:${callFrame.lineNumber + 1}`, time)
  }
  const show = (title: string, map: Map<string, number>) => {
    console.log(`\n${title}`)
    for (const [key, time] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top))
      console.log(`${((100 * time) / total).toFixed(1).padStart(5)}%  ${key}`)
  }
  // Inclusive time: a sample counts once for every package (or file of this repository) on its stack.
  const parent = new Map<number, number>()
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id)
  const inclusive = new Map<string, number>()
  for (const [id, time] of self) {
    const seen = new Set<string>()
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const { callFrame } = byId.get(at)!
      if (callFrame.url !== "") seen.add(where(callFrame.url, callFrame.functionName))
    }
    for (const place of seen) add(inclusive, place, time)
  }
  console.log(`${file}: ${(total / 1e6).toFixed(1)} s sampled`)
  show("inclusive time by place (a sample counts for every place on its stack)", inclusive)
  show("self time by place", places)
  // Self time by file of the packages that do the work (effect's runtime and schemas, the drivers).
  const files = new Map<string, number>()
  for (const [id, time] of self) {
    const { callFrame } = byId.get(id)!
    const file = /node_modules\/(.*)$/.exec(callFrame.url)?.[1]
    if (file !== undefined) add(files, file.replace(/^.*node_modules\//, ""), time)
  }
  show("self time by package file", files)
  show("self time by function", functions)
  // PROFILE_ATTRIBUTE=<regexp of a file or package>: that code's self time, by the repository's functions
  // nearest above it on the stack (PROFILE_DEPTH of them, default 1), e.g. whose rows Schema decodes.
  const attribute = process.env.PROFILE_ATTRIBUTE
  if (attribute !== undefined && attribute !== "") {
    const pattern = new RegExp(attribute)
    const depth = Math.max(1, Number(process.env.PROFILE_DEPTH ?? 1))
    const owners = new Map<string, number>()
    for (const [id, time] of self) {
      if (!pattern.test(byId.get(id)!.callFrame.url)) continue
      const chain: Array<string> = []
      for (let at: number | undefined = id; at !== undefined && chain.length < depth; at = parent.get(at)) {
        const { callFrame } = byId.get(at)!
        if (/\/packages\//.test(callFrame.url))
          chain.push(
            `${callFrame.functionName || "(anonymous)"} ${where(callFrame.url, "")}:${callFrame.lineNumber + 1}`
          )
      }
      add(owners, chain.join(" < ") || "(no function of the repository above it)", time)
    }
    show(`self time in ${attribute}, by the repository's functions above it`, owners)
  }
}

for (const file of profiles) summarise(file)
