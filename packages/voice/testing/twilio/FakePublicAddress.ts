import { createConnection, createServer, type Socket } from "node:net"
import { Effect, type Scope } from "effect"

/**
 * The one public address in front of several servers (`PUBLIC_BASE_URL` when they share it), on
 * 127.0.0.1 in the test's process: a TCP round robin, so HTTP webhooks and WebSocket upgrades alike land
 * on any server. Each connection goes to the next server that accepts it; one that refuses (a server
 * killed) is skipped; a connection whose server dies is closed with it, as a load balancer would.
 *
 * ```ts
 * const address = yield* FakePublicAddress.start([portA, portB])
 * // PUBLIC_BASE_URL=address.url on both servers
 * ```
 */

export interface Running {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string
  readonly port: number
  /** Replaces the servers' ports (a server restarted on another port). */
  readonly setServers: (ports: ReadonlyArray<number>) => void
  /** Connections handed to each port so far. */
  readonly handedTo: () => ReadonlyMap<number, number>
}

/** Listens for the scope (every connection is destroyed when it closes); `ports` may be set later. */
export const start = (ports: ReadonlyArray<number> = []): Effect.Effect<Running, never, Scope.Scope> =>
  Effect.gen(function* () {
    let servers = [...ports]
    let next = 0
    const handed = new Map<number, number>()
    const sockets = new Set<Socket>()
    const track = (socket: Socket) => {
      sockets.add(socket)
      socket.once("close", () => sockets.delete(socket))
      socket.on("error", () => socket.destroy())
    }

    /** Connects `client` to the first server, from the next in turn, that accepts; none: closed. */
    const relay = (client: Socket) => {
      track(client)
      client.pause()
      const candidates = servers.length
      const attempt = (tried: number) => {
        if (client.destroyed) return
        if (tried >= candidates || servers.length === 0) return void client.destroy()
        const port = servers[next++ % servers.length]!
        const upstream = createConnection({ host: "127.0.0.1", port })
        const refused = () => attempt(tried + 1)
        upstream.once("error", refused)
        upstream.once("connect", () => {
          upstream.off("error", refused)
          track(upstream)
          handed.set(port, (handed.get(port) ?? 0) + 1)
          upstream.once("close", () => client.destroy())
          client.once("close", () => upstream.destroy())
          client.pipe(upstream)
          upstream.pipe(client)
          client.resume()
        })
      }
      attempt(0)
    }

    const server = createServer(relay)
    const port = yield* Effect.acquireRelease(
      Effect.async<number>((resume) => {
        server.listen(0, "127.0.0.1", () =>
          resume(Effect.succeed((server.address() as { port: number }).port))
        )
      }),
      () =>
        Effect.async<void>((resume) => {
          for (const socket of sockets) socket.destroy()
          server.close(() => resume(Effect.void))
        })
    )
    return {
      url: `http://127.0.0.1:${port}`,
      port,
      setServers: (ports) => {
        servers = [...ports]
      },
      handedTo: () => new Map(handed)
    }
  })
