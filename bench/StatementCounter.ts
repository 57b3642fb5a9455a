// A loopback TCP proxy in front of PostgreSQL that counts the statements its clients run: every simple
// query (`Q`) and every execution of the extended protocol (`E`, named by the text of the statement its
// portal was bound to), read from the client's side of the wire protocol. Works for any server process
// (the bundled engine, whose `pg` is inside its bundle, and the hand-written baseline alike), at the cost
// of one more hop per statement: a bench counts through it in a run of its own, never a timed one.
import { createConnection, createServer, type Socket } from "node:net"

/** A running counter: where clients connect, what it counted, and how to stop it. */
export interface Counter {
  readonly port: number
  /** Statements so far by their text (whitespace folded), in all. */
  readonly counts: () => ReadonlyMap<string, number>
  readonly total: () => number
  readonly reset: () => void
  readonly close: () => Promise<void>
}

const fold = (text: string) => text.replace(/\s+/g, " ").trim()

/** A C string from `offset`: its text and the offset after its terminating zero. */
const cString = (buffer: Buffer, offset: number): [string, number] => {
  const end = buffer.indexOf(0, offset)
  return [buffer.toString("utf8", offset, end), end + 1]
}

/** Starts the proxy to PostgreSQL at `target` (host and port). */
export const start = (target: { readonly host: string; readonly port: number }) =>
  new Promise<Counter>((resolve) => {
    let counts = new Map<string, number>()
    let total = 0
    const sockets = new Set<Socket>()
    const count = (text: string) => {
      total++
      const key = fold(text)
      counts.set(key, (counts.get(key) ?? 0) + 1)
    }
    const server = createServer((client) => {
      const upstream = createConnection(target)
      sockets.add(client)
      sockets.add(upstream)
      // the connection's statements by name and portals by name: an `E` counts the text its portal runs
      const statements = new Map<string, string>()
      const portals = new Map<string, string>()
      let pending: Buffer = Buffer.alloc(0)
      let typed = false
      client.on("data", (chunk: Buffer) => {
        upstream.write(chunk)
        pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk])
        for (;;) {
          // before the startup message, messages have no type byte (SSL and GSS requests, the startup)
          const head = typed ? 5 : 4
          if (pending.length < head) break
          const length = pending.readInt32BE(typed ? 1 : 0)
          const size = (typed ? 1 : 0) + length
          if (pending.length < size) break
          const message = pending.subarray(0, size)
          pending = pending.subarray(size)
          if (!typed) {
            const code = message.readInt32BE(4)
            if (code !== 80877103 && code !== 80877104) typed = true
            continue
          }
          const type = String.fromCharCode(message[0]!)
          if (type === "Q") count(cString(message, 5)[0])
          else if (type === "P") {
            const [name, at] = cString(message, 5)
            statements.set(name, cString(message, at)[0])
          } else if (type === "B") {
            const [portal, at] = cString(message, 5)
            portals.set(portal, statements.get(cString(message, at)[0]) ?? "(unknown statement)")
          } else if (type === "E") count(portals.get(cString(message, 5)[0]) ?? "(unknown portal)")
        }
      })
      upstream.on("data", (chunk) => client.write(chunk))
      const close = () => {
        client.destroy()
        upstream.destroy()
        sockets.delete(client)
        sockets.delete(upstream)
      }
      client.on("close", close)
      upstream.on("close", close)
      client.on("error", close)
      upstream.on("error", close)
    })
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      resolve({
        port: typeof address === "object" && address !== null ? address.port : 0,
        counts: () => counts,
        total: () => total,
        reset: () => {
          counts = new Map()
          total = 0
        },
        close: () =>
          new Promise<void>((done) => {
            for (const socket of sockets) socket.destroy()
            server.close(() => done())
          })
      })
    })
  })
