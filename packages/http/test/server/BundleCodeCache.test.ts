import { describe, expect, it } from "@effect/vitest"
import { execFileSync } from "node:child_process"
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

/** What `npm start` runs, as the build copies it beside the bundle. */
const startScript = fileURLToPath(new URL("../../scripts/bundle-start.js", import.meta.url))

/** A stand-in bundle: it prints the frame of its own top level, as a stack trace names it. */
const bundle = `process.stdout.write(new Error("where").stack.split("\\n")[1].trim())\n`

describe("the bundle's code cache (start.js)", () => {
  it("keeps one cache a copy of the bundle, so that each copy's stack traces name its own path", () => {
    const root = mkdtempSync(join(tmpdir(), "vap-code-cache-"))
    try {
      const cache = join(root, "cache")
      const copies = ["first", "second"].map((name) => {
        const directory = join(root, name)
        mkdirSync(directory)
        copyFileSync(startScript, join(directory, "start.mjs"))
        writeFileSync(join(directory, "server.cjs"), bundle)
        return directory
      })
      const start = (directory: string) =>
        execFileSync(process.execPath, [join(directory, "start.mjs")], {
          env: { ...process.env, NODE_COMPILE_CACHE: cache },
          encoding: "utf8",
          timeout: 30_000
        })
      // the first copy writes its cache, then reads it; the second, the same bytes elsewhere, has its own
      expect(start(copies[0]!)).toContain(join(copies[0]!, "server.cjs"))
      expect(start(copies[0]!)).toContain(join(copies[0]!, "server.cjs"))
      expect(start(copies[1]!)).toContain(join(copies[1]!, "server.cjs"))
      expect(start(copies[1]!)).toContain(join(copies[1]!, "server.cjs"))
      expect(readdirSync(cache).filter((file) => file.startsWith("vap-server-"))).toHaveLength(2)
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  })
})
