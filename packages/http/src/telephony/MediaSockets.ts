import {
  CarrierAddresses,
  CarrierCallbacks,
  Run,
  RunId,
  RunStore,
  StreamToken,
  VoiceCalls,
  LiveCallErrors
} from "@voice-agent-platform/core"
import { TwilioMediaSession } from "@voice-agent-platform/voice"
import { Clock, Effect, FiberSet, Layer, Option, Runtime } from "effect"
import type { IncomingMessage } from "node:http"
import type { Duplex } from "node:stream"
import { WebSocketServer } from "ws"
import { NodeServer } from "../server/HardenedNodeServer.js"
import * as UpgradeFallback from "../server/UpgradeFallback.js"

/**
 * The carrier's media sockets: WebSocket upgrades of `/telephony/{provider}/stream/{run}/{token}` on the
 * Node server's `upgrade` event (`ws` with `noServer`). The token (`StreamToken`, from the answer webhook)
 * is checked, then the run (it exists, is a phone call, has not ended), all before the upgrade: a wrong
 * or expired token, an unknown or ended run is refused with a plain HTTP status and the connection closed,
 * never upgraded. Any other request with `Upgrade` (another path, `h2c`) is the API's (`UpgradeFallback`). An accepted socket becomes the call's
 * `TwilioMediaSession` and its conversation runs here (`VoiceCalls.serve`), whichever server placed the
 * call. The calls belong to the layer: when the server stops, each is interrupted and hung up. Upgrades
 * outside `/telephony/` are left to `BrowserSockets` (which answers an unknown path 404).
 */

/** The largest frame a media socket takes (Twilio's are under 1 KiB; `MediaStreamMessages` refuses past 64 KiB). */
export const maxPayloadBytes = 128 * 1024

const statusText: Record<number, string> = { 403: "Forbidden", 404: "Not Found", 503: "Service Unavailable" }

/** Answers an upgrade request with a status and no upgrade. */
const refuse = (socket: Duplex, status: number) => {
  if (socket.destroyed) return
  socket.end(`HTTP/1.1 ${status} ${statusText[status]}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`)
}

export const layer = Layer.scopedDiscard(
  Effect.gen(function* () {
    const server = yield* NodeServer
    const calls = yield* VoiceCalls.VoiceCalls
    const provider = (yield* CarrierCallbacks.CarrierCallbacks).provider
    const addresses = yield* CarrierAddresses.CarrierAddresses
    const runs = yield* RunStore.RunStore
    const runtime = yield* Effect.runtime<never>()
    const pattern = new RegExp(`/telephony/${provider}/stream/([1-9][0-9]{0,15})/([^/?#]+)$`)
    const sockets = new WebSocketServer({ noServer: true, maxPayload: maxPayloadBytes })
    // closed last (finalizers run last first): the calls are interrupted and hung up before their sockets go
    yield* Effect.addFinalizer(() =>
      Effect.sync(() => {
        server.off("upgrade", onUpgrade)
        for (const client of sockets.clients) client.terminate()
        sockets.close()
      })
    )
    const runCall = yield* FiberSet.makeRuntime<never, void, never>()

    /** The run a request may stream, or the status refusing it. */
    const admit = (url: string) =>
      Effect.gen(function* () {
        const match = pattern.exec(new URL(url, "http://path.invalid").pathname)
        if (match === null) return { refused: 404 } as const
        const id = Number(match[1])
        if (!Number.isSafeInteger(id)) return { refused: 404 } as const
        const now = new Date(yield* Clock.currentTimeMillis)
        const token = yield* Effect.either(StreamToken.verify(match[2]!, id, now, addresses.streamSecret))
        if (token._tag === "Left") {
          // anyone may send these, unauthenticated: at debug level, so a flood of them cannot fill the logs
          yield* Effect.logDebug(`media socket refused for run ${id}: ${token.left.reason}`)
          return { refused: 403 } as const
        }
        const runId = RunId.RunId.make(id)
        const run = yield* runs.findAnyOrganization(runId)
        if (Option.isNone(run) || run.value.mode !== "phone" || Run.isFinal(run.value.status)) {
          return { refused: 403 } as const
        }
        return { runId } as const
      })

    /**
     * The call a started stream serves: its `start` must name this account and the call dialed for the run,
     * and take the run's socket first (`RunStore.claimMedia`, once, across servers); else it is refused.
     */
    const bind = (runId: RunId.RunId, media: TwilioMediaSession.TwilioMediaSession) =>
      Effect.gen(function* () {
        if (addresses.account !== null && media.accountSid !== addresses.account) {
          return yield* new LiveCallErrors.MediaSessionFailed({ reason: "its start names another account" })
        }
        const now = new Date(yield* Clock.currentTimeMillis)
        if (!(yield* runs.claimMedia(runId, media.callSid, now))) {
          return yield* new LiveCallErrors.MediaSessionFailed({
            reason: "its start names another call than the run's, or the run's socket was taken"
          })
        }
        return media.callSid
      })

    const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      const url = request.url ?? ""
      const path = URL.canParse(url, "http://path.invalid")
        ? new URL(url, "http://path.invalid").pathname
        : ""
      // the other upgrades (browser voice sessions, ordinary requests with `Upgrade`) are `BrowserSockets`' to answer
      if (!path.startsWith("/telephony/")) return
      socket.on("error", () => socket.destroy())
      // anything but a WebSocket on a stream path is an ordinary request (`Upgrade: h2c` …): the API answers it
      if (!UpgradeFallback.isWebSocket(request) || !pattern.test(path)) {
        return UpgradeFallback.serveAsRequest(server, request, socket, head)
      }
      Runtime.runPromise(runtime)(
        Effect.orElseSucceed(admit(request.url ?? ""), () => ({ refused: 503 }) as const)
      )
        .then((admitted) => {
          if ("refused" in admitted) return refuse(socket, admitted.refused)
          sockets.handleUpgrade(request, socket, head, (ws) => {
            runCall(
              Effect.scoped(
                Effect.flatMap(TwilioMediaSession.make(ws), (media) =>
                  Effect.flatMap(bind(admitted.runId, media), (callId) =>
                    calls.serve(admitted.runId, callId, media.session)
                  )
                )
              ).pipe(
                Effect.catchAll((error) =>
                  Effect.logWarning(
                    `media socket of run ${admitted.runId} ended before its call: ${error.reason}`
                  )
                )
              )
            )
          })
        })
        .catch(() => refuse(socket, 503))
    }

    server.on("upgrade", onUpgrade)
  })
)
