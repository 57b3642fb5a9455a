import { HttpApiBuilder, HttpServer } from "@effect/platform"
import { NodeContext, NodeHttpServer } from "@effect/platform-node"
import {
  DownloadLinks,
  Housekeeping,
  InMemory,
  OAuthProvidersConfig,
  SimulationConfig,
  WebhookDispatcher,
  WebhookSender
} from "@voice-agent-platform/core"
import { Console, Effect, Layer, Option, Redacted } from "effect"
import { createServer } from "node:http"
import { join } from "node:path"
import * as AppLayer from "../AppLayer.js"
import { docsPath } from "../docs/DocsRoutes.js"
import * as PublicBaseUrl from "../files/PublicBaseUrl.js"
import * as OperatorAuthentication from "../middleware/OperatorAuthentication.js"
import * as RuntimeAuthentication from "../middleware/RuntimeAuthentication.js"
import * as FileSystemBlobStore from "../storage/FileSystemBlobStore.js"
import * as S3BlobStore from "../storage/S3BlobStore.js"
import * as Bootstrap from "./Bootstrap.js"
import * as ServerConfig from "./ServerConfig.js"

/** Prints where the server listens once it does. */
const announce = Effect.gen(function* () {
  const server = yield* HttpServer.HttpServer
  const address = server.address
  const url =
    address._tag === "TcpAddress"
      ? `http://${address.hostname === "0.0.0.0" ? "localhost" : address.hostname}:${address.port}`
      : `unix:${address.path}`
  yield* Console.log(
    `Voice Agent Platform API listening on ${url} (interactive reference: ${url}${docsPath})`
  )
})

/**
 * The bundled server: configuration from the environment, the in-memory engine with the simulated
 * voice runtime, the bootstrap organization, and the API on Node's HTTP server. Stopping it (SIGTERM,
 * SIGINT) stops accepting connections and lets requests in flight finish.
 */
export const layer = Layer.unwrapEffect(
  Effect.gen(function* () {
    const config = yield* ServerConfig.load
    // OAuth clients come from OAUTH_<PROVIDER>_CLIENT_ID; the integrations service reads them when built.
    // Calls run on the built-in simulated voice runtime, SIM_CALL_SECONDS long.
    // Files (recordings, transcripts) live on disk under DATA_DIR/files; runs and agents stay in memory.
    // With S3_BUCKET set they live in that S3-compatible bucket instead.
    const files = Option.match(config.s3, {
      onNone: () =>
        FileSystemBlobStore.layer(join(config.dataDir, "files")).pipe(Layer.provide(NodeContext.layer)),
      onSome: (s3) => Layer.orDie(S3BlobStore.layer(s3))
    })
    const engine = InMemory.layerSimulatedWithFiles(files).pipe(
      Layer.provide(OAuthProvidersConfig.layerConfig),
      Layer.provide(SimulationConfig.layer(config.simCallSeconds))
    )
    const bootstrap = Layer.effectDiscard(Bootstrap.run(config))
    const linkSigning = Option.match(config.linkSigningSecret, {
      onNone: () => DownloadLinks.layerRandom,
      onSome: (secret) => Layer.orDie(DownloadLinks.layer(Redacted.value(secret)))
    })
    const publicBaseUrl = Option.match(config.publicBaseUrl, {
      onNone: () => Layer.empty,
      onSome: (url) => Layer.orDie(PublicBaseUrl.layer(url))
    })
    const http = HttpApiBuilder.serve().pipe(
      Layer.provide(AppLayer.layer),
      Layer.provide([linkSigning, publicBaseUrl]),
      Layer.provide(OperatorAuthentication.layerToken(config.adminToken)),
      Layer.provide(RuntimeAuthentication.layerToken(config.runtimeToken)),
      Layer.provide(bootstrap),
      Layer.provideMerge(NodeHttpServer.layer(createServer, { port: config.port, host: config.host }))
    )
    // Overdue calls are reclaimed and expired files removed every minute, while the server runs.
    return Layer.mergeAll(
      Layer.effectDiscard(announce).pipe(Layer.provideMerge(http)),
      Housekeeping.layer(),
      // Webhook deliveries go out over fetch, a round every second.
      WebhookDispatcher.layer().pipe(Layer.provide(WebhookSender.layerFetch))
    ).pipe(Layer.provide(engine))
  })
)
