import { describe, expect, it } from "@effect/vitest"
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync } from "node:fs"
import { request } from "node:http"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

const main = fileURLToPath(new URL("../src/server/main.ts", import.meta.url))

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      server.close(() => resolve(typeof address === "object" && address !== null ? address.port : 0))
    })
  })

interface Running {
  readonly child: ChildProcess
  readonly port: number
  readonly output: () => string
  readonly exited: Promise<number | null>
}

/** Starts the bundled server the way `npm start` does and waits until it says it listens. */
const start = async (env: Record<string, string> = {}): Promise<Running> => {
  const port = await freePort()
  const child = spawn(process.execPath, ["--import", "tsx", main], {
    env: {
      ...process.env,
      DATA_DIR: mkdtempSync(join(tmpdir(), "vap-server-")),
      ...env,
      PORT: String(port),
      HOST: "127.0.0.1"
    },
    stdio: ["ignore", "pipe", "pipe"]
  })
  let output = ""
  child.stdout!.on("data", (chunk) => (output += chunk))
  child.stderr!.on("data", (chunk) => (output += chunk))
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)))
  const deadline = Date.now() + 30_000
  while (!output.includes("listening on")) {
    if (Date.now() > deadline || child.exitCode !== null)
      throw new Error(`the server did not start:\n${output}`)
    await new Promise((r) => setTimeout(r, 50))
  }
  return { child, port, output: () => output, exited }
}

const call = (
  port: number,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string
) =>
  new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, method, path, headers }, (res) => {
      let text = ""
      res.on("data", (chunk) => (text += chunk))
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }))
    })
    req.on("error", reject)
    req.end(body)
  })

describe("the bundled server (npm start)", () => {
  it("prints a fresh API key on an empty store, serves with it, and stops cleanly on SIGTERM", async () => {
    const server = await start()
    try {
      const key = /\b(vap_[0-9A-Za-z]{40})\b/.exec(server.output())?.[1]
      expect(key).toBeDefined()
      expect(server.output()).toContain(`http://127.0.0.1:${server.port}`)
      expect((await call(server.port, "GET", "/health")).status).toBe(200)
      expect((await call(server.port, "GET", "/api/v1/agents", { "x-api-key": key! })).status).toBe(200)
      expect((await call(server.port, "GET", "/api/v1/agents")).status).toBe(401)
      // without ADMIN_TOKEN the operator API does not exist
      expect(
        (
          await call(server.port, "POST", "/admin/v1/organizations", {
            authorization: "Bearer whatever-whatever"
          })
        ).status
      ).toBe(404)
    } finally {
      server.child.kill("SIGTERM")
    }
    expect(await server.exited).toBe(0)
  }, 60_000)

  it("uses BOOTSTRAP_API_KEY and ADMIN_TOKEN, and refuses a malformed BOOTSTRAP_API_KEY", async () => {
    const key = `vap_${"K".repeat(40)}`
    const server = await start({ BOOTSTRAP_API_KEY: key, ADMIN_TOKEN: "operator-token-0123456789" })
    try {
      expect(server.output()).not.toContain(key)
      expect((await call(server.port, "GET", "/api/v1/agents", { "x-api-key": key })).status).toBe(200)
      const created = await call(
        server.port,
        "POST",
        "/admin/v1/organizations",
        { authorization: "Bearer operator-token-0123456789", "content-type": "application/json" },
        JSON.stringify({ name: "Second" })
      )
      expect(created.status).toBe(200)
    } finally {
      server.child.kill("SIGTERM")
    }
    expect(await server.exited).toBe(0)

    await expect(start({ BOOTSTRAP_API_KEY: "not-a-key" })).rejects.toThrow(/BOOTSTRAP_API_KEY/)
  }, 60_000)

  it("lets a request in flight finish when it is told to stop", async () => {
    const key = `vap_${"G".repeat(40)}`
    const server = await start({ BOOTSTRAP_API_KEY: key })
    const body = JSON.stringify({ agent: { greeting: "Hello" } })
    const answer = new Promise<number>((resolve, reject) => {
      const req = request(
        {
          host: "127.0.0.1",
          port: server.port,
          method: "POST",
          path: "/api/v1/agents/from-script",
          headers: {
            "x-api-key": key,
            "content-type": "application/json",
            "content-length": Buffer.byteLength(body)
          }
        },
        (res) => {
          res.resume()
          res.on("end", () => resolve(res.statusCode ?? 0))
        }
      )
      req.on("error", reject)
      // Send half the body, stop the server, then send the rest.
      req.write(body.slice(0, 10))
      setTimeout(() => {
        server.child.kill("SIGTERM")
        setTimeout(() => req.end(body.slice(10)), 300)
      }, 200)
    })
    expect(await answer).toBe(200)
    expect(await server.exited).toBe(0)
  }, 60_000)
})
