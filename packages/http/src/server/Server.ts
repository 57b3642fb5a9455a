import { HttpApiBuilder, HttpMiddleware, HttpServer } from "@effect/platform"
import { NodeContext } from "@effect/platform-node"
import {
  AnalysisSettings,
  ChatSettings,
  DownloadLinks,
  CampaignDialer,
  EmbeddedModel,
  ImprovementGeneration,
  ModelChoices,
  ModelPricing,
  ModelPromptWriter,
  RunAnalysis,
  ShiftedClock,
  Housekeeping,
  OAuthProvidersConfig,
  OutboundPolicy,
  Quotas,
  SimulatedEngine,
  SimulationConfig,
  WebhookDispatcher,
  WebhookSender
} from "@voice-agent-platform/core"
import {
  AdvisoryLock,
  DataDirectoryLock,
  EmbeddedPostgres,
  PgConnection,
  PgStorage,
  SecretBox,
  ServerSecrets,
  StorageGauges
} from "@voice-agent-platform/pg"
import { FileSystemBlobStore, S3BlobStore } from "@voice-agent-platform/blob-stores"
import { OpenAiCompatible } from "@voice-agent-platform/language-models"
import type { SqlClient, SqlError } from "@effect/sql"
import { Console, Deferred, Effect, Layer, Option, Redacted } from "effect"
import { join } from "node:path"
import * as AppLayer from "../AppLayer.js"
import { consolePath } from "../console/ConsolePage.js"
import { docsPath } from "../docs/DocsRoutes.js"
import * as PublicBaseUrl from "../files/PublicBaseUrl.js"
import * as OperatorAuthentication from "../middleware/OperatorAuthentication.js"
import * as RequestDeadline from "../middleware/RequestDeadline.js"
import * as MetricsRoute from "../observability/MetricsRoute.js"
import * as NodeOutboundHttp from "../outbound/NodeOutboundHttp.js"
import * as RuntimeAuthentication from "../middleware/RuntimeAuthentication.js"
import * as VoiceLayers from "../telephony/VoiceLayers.js"
import * as Bootstrap from "./Bootstrap.js"
import * as HardenedNodeServer from "./HardenedNodeServer.js"
import * as ServerConfig from "./ServerConfig.js"

/** Why the database could not be opened: the embedded one is locked or damaged, or the server is unreachable. */
type DatabaseStartError =
  SqlError.SqlError | DataDirectoryLock.EmbeddedDatabaseInUse | PgConnection.DatabaseUnreachable

/** Prints where the server listens once it does. */
const announce = Effect.gen(function* () {
  const server = yield* HttpServer.HttpServer
  const address = server.address
  const url =
    address._tag === "TcpAddress"
      ? `http://${address.hostname === "0.0.0.0" ? "localhost" : address.hostname}:${address.port}`
      : `unix:${address.path}`
  yield* Console.log(
    `Voice Agent Platform API listening on ${url} (interactive reference: ${url}${docsPath}, console: ${url}${consolePath})`
  )
})

/**
 * The bundled server: configuration from the environment, the engine with the simulated voice runtime over
 * PostgreSQL (the embedded one under `DATA_DIR`, or `DATABASE_URL`), the bootstrap organization, and the
 * API on Node's HTTP server with its limits and deadlines (`HardenedNodeServer`, `RequestDeadline`). The port
 * takes connections only once all of that is ready. Stopping it (SIGTERM, SIGINT) stops accepting
 * connections, lets requests in flight finish until the shutdown deadline, closes every connection left,
 * and closes the database.
 */
export const layer = Layer.unwrapEffect(
  Effect.gen(function* () {
    const config = yield* ServerConfig.load
    // OAuth clients come from OAUTH_<PROVIDER>_CLIENT_ID; the integrations service reads them when built.
    // Calls run on the built-in simulated voice runtime, SIM_CALL_SECONDS long.
    // Files (recordings, transcripts) live on disk under DATA_DIR/files, or, with S3_BUCKET set, in that
    // S3-compatible bucket.
    const files = Option.match(config.s3, {
      onNone: () =>
        FileSystemBlobStore.layer(join(config.dataDir, "files")).pipe(Layer.provide(NodeContext.layer)),
      onSome: (s3) => Layer.orDie(S3BlobStore.layer(s3))
    })
    // Everything else lives in PostgreSQL: DATABASE_URL, or the embedded database under DATA_DIR/postgres.
    const database = Option.match(config.databaseUrl, {
      onNone: (): Layer.Layer<SqlClient.SqlClient, DatabaseStartError> =>
        EmbeddedPostgres.layer({ dataDirectory: join(config.dataDir, "postgres") }),
      onSome: (url) =>
        PgConnection.layer({ url, maxConnections: config.databaseMaxConnections, ...config.databaseTimeouts })
    })
    const secretBox = Option.match(config.encryptionKey, {
      onNone: () => SecretBox.layerKeyFile(join(config.dataDir, "encryption.key")),
      onSome: SecretBox.layer
    })
    // Conversations and analyses ask the embedded rule-based model, or an OpenAI-compatible server
    // (LLM_PROVIDER=openai, its LLM_* settings read and checked here: a bad one stops the server).
    const modelOptions =
      config.llmProvider === "openai" ? Option.some(yield* OpenAiCompatible.config) : Option.none()
    const maxTokens = yield* OpenAiCompatible.maxTokensConfig
    const model = Option.match(modelOptions, {
      onSome: (options) => Layer.orDie(OpenAiCompatible.layer(options)),
      onNone: () => EmbeddedModel.layerWith({ max_tokens: maxTokens })
    })
    // An analysis job held for less time than a model request may take can be taken over while it runs:
    // its result is still written once, but the model is asked twice.
    const modelTimeoutMs = Option.match(modelOptions, {
      onSome: (options) => options.timeoutMs ?? OpenAiCompatible.defaults.timeoutMs,
      onNone: () => 0
    })
    const leaseWarning =
      config.analysisLeaseSeconds * 1000 <= modelTimeoutMs
        ? Layer.effectDiscard(
            Console.warn(
              `ANALYSIS_LEASE_SECONDS (${config.analysisLeaseSeconds}) is not longer than LLM_TIMEOUT_MS (${modelTimeoutMs} ms): ` +
                "an analysis still waiting for the model may be taken over by another server and asked twice. Make the lease longer."
            )
          )
        : Layer.empty
    // generate_with_ai rewrites prompts with a real model only: the embedded one writes no prose
    const promptWriter =
      config.llmProvider === "openai" ? ModelPromptWriter.layer.pipe(Layer.provide(model)) : Layer.empty
    // Calls are simulated (TELEPHONY=simulated, the default; they use the agents' HTTP API tools through
    // the same guarded client as everything else) or placed through Twilio (TELEPHONY=twilio).
    const twilio =
      config.voice.telephony.kind === "twilio" ? Option.some(config.voice.telephony) : Option.none()
    const engineLayer = Option.match(twilio, {
      onNone: () => SimulatedEngine.layerWithTools(PgStorage.layer, files, model),
      onSome: (settings) =>
        SimulatedEngine.layerWithTelephony(VoiceLayers.telephony(settings), PgStorage.layer, files, model)
    })
    const engine = engineLayer.pipe(
      Layer.provide(promptWriter),
      Layer.provide(NodeOutboundHttp.layer),
      Layer.provide(OutboundPolicy.layer(config.outboundAllowHosts)),
      Layer.provide(OAuthProvidersConfig.layerConfig),
      Layer.provide(SimulationConfig.layer(config.simCallSeconds)),
      Layer.provide(Quotas.layer(config.quotas)),
      // settings the background work reads too: merged into the engine's output
      Layer.provideMerge(ModelPricing.layer(config.modelPrice)),
      // the models agents may choose: the operator's list, else the default model alone (any with the
      // embedded model, which has only itself)
      Layer.provideMerge(
        ModelChoices.layer({
          allowed: Option.match(modelOptions, {
            onNone: () => "any" as const,
            onSome: (options) => options.allowedModels ?? [options.model ?? OpenAiCompatible.defaults.model]
          })
        })
      ),
      Layer.provideMerge(ChatSettings.layer({ idleSeconds: config.chatIdleSeconds })),
      Layer.provideMerge(
        AnalysisSettings.layer({
          improvementsEveryRuns: config.improvementsEveryRuns,
          leaseSeconds: config.analysisLeaseSeconds
        })
      )
    )
    // Servers starting at once over one database create the first organization (or the key's) once.
    const bootstrap = Layer.effectDiscard(
      AdvisoryLock.exclusively(AdvisoryLock.bootstrapKey)(Bootstrap.run(config))
    )
    // Links signed by one server open at every other: the secret is configured, or shared in the database.
    const linkSigning = Layer.orDie(
      Layer.unwrapEffect(
        Effect.map(
          Option.match(config.linkSigningSecret, {
            onNone: () => ServerSecrets.shared(ServerSecrets.linkSigning),
            onSome: Effect.succeed
          }),
          (secret) => DownloadLinks.layer(Redacted.value(secret))
        )
      )
    )
    const publicBaseUrl = Option.match(config.publicBaseUrl, {
      onNone: () => Layer.empty,
      onSome: (url) => Layer.orDie(PublicBaseUrl.layer(url))
    })
    // Where webhooks (and tools) may connect: the public internet, plus OUTBOUND_ALLOW_HOSTS.
    const outboundPolicy = OutboundPolicy.layer(config.outboundAllowHosts)
    // Without PUBLIC_BASE_URL, links take a request's origin only for the PUBLIC_HOSTS, else the listening address.
    const trustedHosts = Layer.orDie(PublicBaseUrl.layerTrustedHosts(config.publicHosts))
    // With Twilio: the carrier's webhooks (signed, outside the API key) and its media sockets (upgrades of
    // the Node server), the calls' conversations running where their socket lands.
    const { carrierRoutes, mediaSockets, browserSockets } = VoiceLayers.serverLayers(
      config.voice,
      NodeOutboundHttp.layer.pipe(Layer.provide(OutboundPolicy.layer(config.outboundAllowHosts)))
    )
    if (Option.isSome(twilio) && config.voice.speechToText.kind === "embedded") {
      yield* Console.warn(
        "TELEPHONY=twilio with STT_PROVIDER=embedded: the embedded speech to text recognises no real speech, " +
          "so callers will not be understood. Set STT_PROVIDER=deepgram for real calls."
      )
    }
    const http = HttpApiBuilder.serve().pipe(
      Layer.provide(AppLayer.layer),
      Layer.provide(carrierRoutes),
      // This server answers nothing but the API: the platform's span (full URL, query string) is off for all,
      // requests no route matches included.
      Layer.provide(
        Layer.scopedDiscard(Effect.locallyScoped(HttpMiddleware.currentTracerDisabledWhen, () => true))
      ),
      Layer.provide([linkSigning, publicBaseUrl, trustedHosts, outboundPolicy]),
      Layer.provide(MetricsRoute.layerScrapeGauges(StorageGauges.refresh)),
      Layer.provide(OperatorAuthentication.layerToken(config.adminToken)),
      Layer.provide(RuntimeAuthentication.layerToken(config.runtimeToken)),
      Layer.provide(bootstrap),
      Layer.provide(RequestDeadline.setting(config.requestDeadline)),
      // It listens once the app above is served: a connection made during start-up is refused, never left hanging.
      Layer.provideMerge(
        // Its handler groups and middleware carry their own services: a request's fiber needs the platform's only.
        HardenedNodeServer.layer({ port: config.port, host: config.host }, config.serverLimits, {
          narrowRequestContext: true,
          // the API's operations on the engine's own path (docs/decisions.md)
          directRoutes: true
        })
      )
    )
    // Files on this server's disk are not seen by other servers over the same database.
    const filesWarning =
      Option.isSome(config.databaseUrl) && Option.isNone(config.s3)
        ? Layer.effectDiscard(
            Console.warn(
              `Files (recordings, transcripts, documents) are kept on this server's disk under ${join(config.dataDir, "files")}. ` +
                "Several servers over one database must share files: set S3_BUCKET."
            )
          )
        : Layer.empty
    // Listening on every interface, links would name `localhost`: clients elsewhere need the public URL.
    const linksWarning =
      Option.isNone(config.publicBaseUrl) && ["0.0.0.0", "::"].includes(config.host)
        ? Layer.effectDiscard(
            Console.warn(
              `Download links will point to http://localhost:${config.port} (HOST is ${config.host} and PUBLIC_BASE_URL is not set). ` +
                "Set PUBLIC_BASE_URL to the URL clients reach this server at, or PUBLIC_HOSTS to the Host names it answers to."
            )
          )
        : Layer.empty
    // The background work starts once the server listens: its first rounds (a dozen statements) would
    // otherwise run during start-up, on the embedded database ahead of everything else on its one backend.
    const listening = yield* Deferred.make<void>()
    const onceListening = <E, R>(background: Layer.Layer<never, E, R>) =>
      Layer.scopedDiscard(
        Effect.flatMap(Effect.scope, (scope) =>
          Effect.forkScoped(
            Effect.zipRight(Deferred.await(listening), Layer.buildWithScope(background, scope))
          )
        )
      )
    return Layer.mergeAll(
      filesWarning,
      linksWarning,
      leaseWarning,
      Layer.merge(
        Layer.effectDiscard(Effect.zipRight(announce, Deferred.succeed(listening, undefined))),
        Layer.merge(mediaSockets, browserSockets.pipe(Layer.provide(linkSigning)))
      ).pipe(Layer.provideMerge(http)),
      onceListening(
        Layer.mergeAll(
          // Every minute while the server runs: overdue calls are reclaimed, expired files and idempotency
          // records removed, and documents left pending handed to the processors.
          Housekeeping.layer(),
          // Running campaigns are dialed in the background, sharing the work with other servers by leases.
          CampaignDialer.layer(),
          // Ended runs are analysed by the model (and agents' suggestions generated), sharing the jobs with
          // other servers by leases.
          RunAnalysis.layerWorker.pipe(
            Layer.provide(RunAnalysis.layer),
            Layer.provide(ImprovementGeneration.layer)
          ),
          // Webhook deliveries go out through the guarded outbound client, a round every second.
          WebhookDispatcher.layer().pipe(
            Layer.provide(WebhookSender.layer),
            Layer.provide(NodeOutboundHttp.layer),
            Layer.provide(outboundPolicy)
          )
        )
      )
    ).pipe(
      Layer.provide(engine),
      Layer.provide(Layer.merge(database, secretBox)),
      // CLOCK_OFFSET_SECONDS (tests only): everything above reads the machine's clock shifted by it
      Layer.provide(
        config.clockOffsetSeconds === 0 ? Layer.empty : ShiftedClock.layer(config.clockOffsetSeconds * 1000)
      )
    )
  })
)
