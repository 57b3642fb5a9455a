import { BrowserSessions, DownloadLinks, RunId, RunStore, StreamToken } from "@voice-agent-platform/core"
import { BrowserMediaSession, BrowserSocketMessages } from "@voice-agent-platform/voice"
import { Clock, Effect, FiberSet, Layer, Option, Runtime } from "effect"
import type { IncomingMessage } from "node:http"
import type { Duplex } from "node:stream"
import { WebSocketServer } from "ws"
import * as UpgradeFallback from "../server/UpgradeFallback.js"
import { NodeServer } from "../server/HardenedNodeServer.js"
import * as SessionTokens from "./SessionTokens.js"

/**
 * The browser voice sessions' sockets: WebSocket upgrades of `/voice/sessions/{run}/{token}` on the Node
 * server's `upgrade` event (`ws` with `noServer`). The token (`SessionTokens`, from the run's creation) is
 * checked, then the run (it exists, is a `webrtc` or `smallwebrtc` session, has not started or ended), all
 * before the upgrade: anything else is answered with a plain HTTP status and closed, never upgraded. An
 * accepted socket becomes a `BrowserMediaSession` and the session's conversation runs here
 * (`BrowserSessions.serve`): each transcript fragment is sent to the browser as it is kept, then `end`
 * with the reason, and the socket is closed. The sessions belong to the layer: a server that stops ends
 * them (the run ended, its recording stored).
 *
 * Upgrades of the carrier's media sockets (`/telephony/…`) are `MediaSockets`' to answer. Any other request
 * with `Upgrade` (an unknown path, `Upgrade: h2c` as `curl --http2` sends) is an ordinary request the API
 * answers (`UpgradeFallback`).
 */

const statusText: Record<number, string> = { 403: "Forbidden", 404: "Not Found", 503: "Service Unavailable" }

const refuse = (socket: Duplex, status: number) => {
  if (socket.destroyed) return
  socket.end(`HTTP/1.1 ${status} ${statusText[status]}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`)
}

/** Where the sessions' sockets are. */
const sessionsPrefix = "/voice/sessions/"

/** The prefixes other upgrade listeners answer. */
const othersPrefixes = ["/telephony/"]

export const layer = Layer.scopedDiscard(
  Effect.gen(function* () {
    const server = yield* NodeServer
    const sessions = yield* BrowserSessions.BrowserSessions
    const runs = yield* RunStore.RunStore
    const secret = SessionTokens.secretOf((yield* DownloadLinks.LinkSigningKey).secret)
    const runtime = yield* Effect.runtime<never>()
    const pattern = /^\/voice\/sessions\/([1-9][0-9]{0,15})\/([^/?#]+)$/
    const sockets = new WebSocketServer({ noServer: true, maxPayload: BrowserSocketMessages.maxFrameBytes })
    yield* Effect.addFinalizer(() =>
      Effect.sync(() => {
        server.off("upgrade", onUpgrade)
        for (const client of sockets.clients) client.terminate()
        sockets.close()
      })
    )
    const runSession = yield* FiberSet.makeRuntime<never, void, never>()

    /** The run a request may open, or the status refusing it; null for a path another listener answers. */
    const admit = (pathname: string) =>
      Effect.gen(function* () {
        const match = pattern.exec(pathname)
        if (match === null) return { refused: 404 } as const
        const id = Number(match[1])
        if (!Number.isSafeInteger(id)) return { refused: 404 } as const
        const now = new Date(yield* Clock.currentTimeMillis)
        const token = yield* Effect.either(StreamToken.verify(match[2]!, id, now, secret))
        if (token._tag === "Left") {
          // anyone may send these, unauthenticated: at debug level, so a flood of them cannot fill the logs
          yield* Effect.logDebug(`browser session socket refused for run ${id}: ${token.left.reason}`)
          return { refused: 403 } as const
        }
        const runId = RunId.RunId.make(id)
        const run = yield* runs.findAnyOrganization(runId)
        if (
          Option.isNone(run) ||
          (run.value.mode !== "webrtc" && run.value.mode !== "smallwebrtc") ||
          run.value.status !== "initialized"
        ) {
          return { refused: 403 } as const
        }
        return { runId } as const
      })

    const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      const url = request.url ?? ""
      const pathname = URL.canParse(url, "http://path.invalid")
        ? new URL(url, "http://path.invalid").pathname
        : ""
      if (othersPrefixes.some((prefix) => pathname.startsWith(prefix))) return
      socket.on("error", () => socket.destroy())
      // anything but a WebSocket on a session path is an ordinary request (`Upgrade: h2c` …): the API answers it
      if (!UpgradeFallback.isWebSocket(request) || !pathname.startsWith(sessionsPrefix)) {
        return UpgradeFallback.serveAsRequest(server, request, socket, head)
      }
      Runtime.runPromise(runtime)(Effect.orElseSucceed(admit(pathname), () => ({ refused: 503 }) as const))
        .then((admitted) => {
          if ("refused" in admitted) return refuse(socket, admitted.refused)
          sockets.handleUpgrade(request, socket, head, (ws) => {
            runSession(
              Effect.scoped(
                Effect.gen(function* () {
                  const media = yield* BrowserMediaSession.make(ws)
                  const end = yield* sessions.serve(admitted.runId, media.session, (fragment) =>
                    Effect.ignore(
                      media.send({
                        type: "transcript",
                        role: fragment.role,
                        text: fragment.text,
                        timestamp: fragment.timestamp.toISOString()
                      })
                    )
                  )
                  yield* Effect.ignore(media.send({ type: "end", reason: end?.reason ?? "ended" }))
                })
              )
            )
          })
        })
        .catch(() => refuse(socket, 503))
    }

    server.on("upgrade", onUpgrade)
  })
)
