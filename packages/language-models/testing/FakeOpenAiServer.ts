import { type ChildProcess, spawn } from "node:child_process"
import { dirname } from "node:path"
import { fileURLToPath } from "node:url"
import { Context, Effect, Layer, type Scope } from "effect"
import type { RecordedRequest, ScriptedAnswer } from "./FakeScript.js"

/**
 * The fake OpenAI-compatible server (`FakeOpenAiServerMain`) as a test starts it: a child process on
 * 127.0.0.1, in a process group of its own, killed with its group when the scope closes (and when the
 * test process exits on any path), with a small client of its control API.
 *
 * ```ts
 * const fake = yield* FakeOpenAiServer.start
 * yield* fake.script({ kind: "reply", content: "Hi" })
 * // OpenAiCompatible.layer({ baseUrl: fake.baseUrl }) now answers "Hi"
 * ```
 */

/** A running fake server. */
export interface Running {
  /** `http://127.0.0.1:<port>/v1`: what `LLM_BASE_URL` is set to. */
  readonly baseUrl: string
  readonly port: number
  /** The program's process id, also its process group's (it runs in a group of its own). */
  readonly pid: number
  /** Queues answers, used once each in order by the next model requests. */
  readonly script: (...answers: ReadonlyArray<ScriptedAnswer>) => Effect.Effect<void>
  /** The requests received so far (control requests aside), oldest first. */
  readonly requests: Effect.Effect<ReadonlyArray<RecordedRequest>>
  /** Makes unscripted answers wait `ms` milliseconds (a model that takes its time). */
  readonly setDefaultDelay: (ms: number) => Effect.Effect<void>
  /** Forgets queued answers, recorded requests and the default delay. */
  readonly reset: Effect.Effect<void>
}

/** The server a test file shares (see `layer`). */
export class FakeOpenAiServer extends Context.Tag("@voice-agent-platform/language-models/FakeOpenAiServer")<
  FakeOpenAiServer,
  Running
>() {}

/** The program next to this module: TypeScript sources run through tsx, a build runs under plain node. */
const program = (): { readonly path: string; readonly args: ReadonlyArray<string> } => {
  const fromSources = import.meta.url.endsWith(".ts")
  const path = fileURLToPath(new URL(`./FakeOpenAiServerMain.${fromSources ? "ts" : "js"}`, import.meta.url))
  return { path, args: fromSources ? ["--import", "tsx", path] : [path] }
}

const signalGroup = (child: ChildProcess, signal: NodeJS.Signals) => {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return
  try {
    process.kill(-child.pid, signal)
  } catch {
    // the group is gone already
  }
}

/** Starts the program and waits for its first line (the port), failing after 30 s with what it printed. */
const spawnServer = Effect.async<{ readonly child: ChildProcess; readonly port: number }, Error>((resume) => {
  const { args, path } = program()
  const child = spawn(process.execPath, args, {
    // tsx is found from the program's folder, up through the workspace's node_modules
    cwd: dirname(path),
    env: process.env,
    stdio: ["pipe", "pipe", "pipe"],
    detached: true
  })
  const killOnExit = () => signalGroup(child, "SIGKILL")
  process.once("exit", killOnExit)
  child.once("exit", () => process.off("exit", killOnExit))
  let output = ""
  let settled = false
  const settle = (result: Effect.Effect<{ readonly child: ChildProcess; readonly port: number }, Error>) => {
    if (settled) return
    settled = true
    clearTimeout(timer)
    resume(result)
  }
  const fail = (why: string) => {
    signalGroup(child, "SIGKILL")
    settle(Effect.fail(new Error(`the fake OpenAI server did not start: ${why}\n${output}`)))
  }
  const timer = setTimeout(() => fail("no port after 30 s"), 30_000)
  child.stdout!.setEncoding("utf8")
  child.stderr!.setEncoding("utf8")
  child.stderr!.on("data", (chunk: string) => (output += chunk))
  child.stdout!.on("data", (chunk: string) => {
    output += chunk
    const line = output.split("\n")[0]
    if (!output.includes("\n") || line === undefined) return
    try {
      const port = (JSON.parse(line) as { port: number }).port
      settle(Effect.succeed({ child, port }))
    } catch {
      fail("its first line is not the port")
    }
  })
  child.once("error", (error) => fail(error.message))
  child.once("exit", (code, signal) => fail(`it exited (${code ?? signal})`))
  return Effect.sync(() => {
    clearTimeout(timer)
    signalGroup(child, "SIGKILL")
  })
})

/** Kills the server's group and waits for it to be gone. */
const stop = (child: ChildProcess) =>
  Effect.async<void>((resume) => {
    if (child.exitCode !== null || child.signalCode !== null) return resume(Effect.void)
    child.once("exit", () => resume(Effect.void))
    signalGroup(child, "SIGKILL")
  })

/** Starts a fake server for the scope. */
export const start: Effect.Effect<Running, never, Scope.Scope> = Effect.gen(function* () {
  const { child, port } = yield* Effect.acquireRelease(Effect.orDie(spawnServer), ({ child }) => stop(child))
  const origin = `http://127.0.0.1:${port}`
  const control = (method: "GET" | "POST", path: string, body?: unknown) =>
    Effect.promise(async () => {
      const response = await fetch(`${origin}/__fake/${path}`, {
        method,
        headers: { "content-type": "application/json" },
        ...(body === undefined ? {} : { body: JSON.stringify(body) })
      })
      const json = (await response.json()) as unknown
      if (!response.ok)
        throw new Error(`the fake server refused ${method} /__fake/${path}: ${JSON.stringify(json)}`)
      return json
    })
  return {
    baseUrl: `${origin}/v1`,
    port,
    pid: child.pid!,
    script: (...answers) => Effect.asVoid(control("POST", "answers", { answers })),
    requests: Effect.map(
      control("GET", "requests"),
      (json) => (json as { readonly requests: ReadonlyArray<RecordedRequest> }).requests
    ),
    setDefaultDelay: (ms) => Effect.asVoid(control("POST", "default-delay", { ms })),
    reset: Effect.asVoid(control("POST", "reset"))
  }
})

/** One fake server for every test under a `layer(…)` block, stopped after them. */
export const layer: Layer.Layer<FakeOpenAiServer> = Layer.scoped(FakeOpenAiServer, start)
