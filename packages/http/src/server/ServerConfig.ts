import {
  type AllowList,
  AnalysisSettings,
  ApiKey,
  ChatSettings,
  ShiftedClock,
  type ModelPricing,
  OutboundPolicy,
  Quotas,
  SimulationConfig
} from "@voice-agent-platform/core"
import { PgConnection } from "@voice-agent-platform/pg"
import { Config, ConfigError, Duration, Effect, Either, Option, Redacted } from "effect"
import * as RequestDeadline from "../middleware/RequestDeadline.js"
import * as HardenedNodeServer from "./HardenedNodeServer.js"
import * as VoiceConfig from "./VoiceConfig.js"

/** The bundled server's settings, read from the environment. */
export interface ServerConfig {
  /** `PORT`, default 8080. */
  readonly port: number
  /** `HOST`, default 127.0.0.1 (set 0.0.0.0 to listen on every interface, e.g. in a container). */
  readonly host: string
  /** `BOOTSTRAP_API_KEY`: make sure an organization answers to exactly this key. */
  readonly bootstrapApiKey: Option.Option<Redacted.Redacted<string>>
  /** `ADMIN_TOKEN`: turns the operator API on. */
  readonly adminToken: Option.Option<Redacted.Redacted<string>>
  /** `RUNTIME_TOKEN`: turns the voice-runtime ingestion routes (`/runtime/v1`) on. */
  readonly runtimeToken: Option.Option<Redacted.Redacted<string>>
  /**
   * `PUBLIC_BASE_URL`: where download links point (default: the request's origin when its `Host` is one
   * of `PUBLIC_HOSTS`, else the address the server listens on; never an untrusted `Host`).
   */
  readonly publicBaseUrl: Option.Option<string>
  /** `PUBLIC_HOSTS`: comma-separated `Host` values whose origin links may take without `PUBLIC_BASE_URL` (default none). */
  readonly publicHosts: ReadonlyArray<string>
  /** `LINK_SIGNING_SECRET`: signs download links (default: a secret made once and kept in the database). */
  readonly linkSigningSecret: Option.Option<Redacted.Redacted<string>>
  /** `DATA_DIR`: where the server keeps its files (recordings, transcripts under `files/`); default `./.data`. */
  readonly dataDir: string
  /** `SIM_CALL_SECONDS`: the talk time of a simulated call, fractions allowed (default 4). */
  readonly simCallSeconds: number
  /**
   * `CLOCK_OFFSET_SECONDS`, for tests only: how far the server's clock runs ahead of the machine's
   * (`ShiftedClock`; negative: behind), so a test places calls at a chosen time of day. Default 0.
   */
  readonly clockOffsetSeconds: number
  /** `S3_BUCKET` and the other `S3_*` variables: keep files in an S3-compatible bucket instead of `DATA_DIR`. */
  readonly s3: Option.Option<S3Settings>
  /** `DATABASE_URL`: keep data in this PostgreSQL database (default: the embedded one under `DATA_DIR`). */
  readonly databaseUrl: Option.Option<Redacted.Redacted<string>>
  /** `DATABASE_MAX_CONNECTIONS`: this server's pool size with `DATABASE_URL`, default 10. */
  readonly databaseMaxConnections: number
  /** The Node server's limits: `HEADERS_TIMEOUT_SECONDS`, `REQUEST_BODY_TIMEOUT_SECONDS`, `KEEP_ALIVE_TIMEOUT_SECONDS`, `MAX_HEADER_BYTES`, `SHUTDOWN_DEADLINE_SECONDS`. */
  readonly serverLimits: HardenedNodeServer.Limits
  /** `REQUEST_DEADLINE_SECONDS`: how long a handler may take to answer, default 30 (0: no deadline). */
  readonly requestDeadline: Duration.Duration
  /** With `DATABASE_URL`: `DATABASE_CONNECT_TIMEOUT_SECONDS`, `DATABASE_STATEMENT_TIMEOUT_MS`, `DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS`. */
  readonly databaseTimeouts: Config.Config.Success<typeof PgConnection.timeoutsConfig>
  /**
   * `ENCRYPTION_KEY`: encrypts secrets at rest; required with `DATABASE_URL` (every server over one
   * database needs the same key). Default with the embedded database: a key made once in `DATA_DIR`.
   */
  readonly encryptionKey: Option.Option<Redacted.Redacted<string>>
  /**
   * `OUTBOUND_ALLOW_HOSTS`: host names, addresses and CIDR ranges (comma-separated) that webhooks and
   * tools may reach although they are loopback, private or otherwise refused; default none.
   */
  readonly outboundAllowHosts: AllowList.AllowList
  /**
   * `QUOTA_WEBHOOK_ENDPOINTS`, `QUOTA_DOCUMENTS`, `QUOTA_CAMPAIGNS` and `QUOTA_API_KEYS`: records one
   * organization may hold (defaults 20, 1,000, 100 and 20).
   */
  readonly quotas: Quotas.QuotaLimits
  /**
   * `LLM_PROVIDER`: `embedded` (default: the rule-based stand-in, no key, no network) or `openai` (an
   * OpenAI-compatible Chat Completions server; its `LLM_*` settings are read by the adapter).
   */
  readonly llmProvider: "embedded" | "openai"
  /** `LLM_PRICE_PLN_PER_MTOK_IN` and `LLM_PRICE_PLN_PER_MTOK_OUT`: what tokens cost the organizations (default 0). */
  readonly modelPrice: ModelPricing.ModelPrice
  /** `CHAT_IDLE_SECONDS`: a chat without a message this long ends by itself (default 600). */
  readonly chatIdleSeconds: number
  /** `IMPROVEMENTS_EVERY_RUNS`: suggestions generated after every so many analysed runs of an agent (default 20; 0 off). */
  readonly improvementsEveryRuns: number
  /** `ANALYSIS_LEASE_SECONDS`: how long a server holds an analysis job before another may take it over (default 120). */
  readonly analysisLeaseSeconds: number
  /**
   * `TELEPHONY` (`simulated` | `twilio` and the Twilio variables), `STT_PROVIDER`, `TTS_PROVIDER` and
   * `VOICE_SILENCE_SECONDS`: where calls go and what real calls hear and speak with (`VoiceConfig`).
   */
  readonly voice: VoiceConfig.VoiceSettings
}

/** An S3-compatible bucket for files; `S3_BUCKET` turns it on, the key pair is then required. */
export interface S3Settings {
  /** `S3_ENDPOINT`, an http(s) origin (default `https://s3.<region>.amazonaws.com`). */
  readonly endpoint: string
  readonly bucket: string
  /** `S3_REGION`, default `us-east-1`. */
  readonly region: string
  /** `S3_ACCESS_KEY_ID`. */
  readonly accessKeyId: string
  /** `S3_SECRET_ACCESS_KEY`. */
  readonly secretAccessKey: Redacted.Redacted<string>
}

const isOrigin = (value: string) => {
  try {
    const url = new URL(value)
    return (url.protocol === "http:" || url.protocol === "https:") && url.pathname === "/" && !url.search
  } catch {
    return false
  }
}

/** The S3 settings when `S3_BUCKET` is set: a half-configured bucket stops the server instead of falling back. */
const s3Config: Config.Config<Option.Option<S3Settings>> = Config.all({
  bucket: Config.option(Config.nonEmptyString("S3_BUCKET")),
  region: Config.nonEmptyString("S3_REGION").pipe(Config.withDefault("us-east-1")),
  endpoint: Config.option(
    Config.nonEmptyString("S3_ENDPOINT").pipe(
      Config.validate({
        message: "S3_ENDPOINT must be an http(s) origin without a path",
        validation: isOrigin
      })
    )
  ),
  accessKeyId: Config.option(Config.nonEmptyString("S3_ACCESS_KEY_ID")),
  secretAccessKey: Config.option(Config.redacted("S3_SECRET_ACCESS_KEY"))
}).pipe(
  Config.mapOrFail(({ accessKeyId, bucket, endpoint, region, secretAccessKey }) => {
    if (Option.isNone(bucket)) return Either.right(Option.none())
    if (Option.isNone(accessKeyId)) {
      return Either.left(
        ConfigError.MissingData(["S3_ACCESS_KEY_ID"], "S3_ACCESS_KEY_ID is required with S3_BUCKET")
      )
    }
    if (Option.isNone(secretAccessKey)) {
      return Either.left(
        ConfigError.MissingData(["S3_SECRET_ACCESS_KEY"], "S3_SECRET_ACCESS_KEY is required with S3_BUCKET")
      )
    }
    return Either.right(
      Option.some({
        bucket: bucket.value,
        region,
        endpoint: Option.getOrElse(endpoint, () => `https://s3.${region}.amazonaws.com`),
        accessKeyId: accessKeyId.value,
        secretAccessKey: secretAccessKey.value
      })
    )
  })
)

/** A quota variable: a whole number from 1 to `Quotas.maxLimit`, its default when unset. */
const quota = (name: string, fallback: number) =>
  Config.integer(name).pipe(
    Config.withDefault(fallback),
    Config.validate({
      message: `${name} must be a whole number from 1 to ${Quotas.maxLimit}`,
      validation: Quotas.isValidLimit
    })
  )

/** The quotas per organization. */
const quotasConfig: Config.Config<Quotas.QuotaLimits> = Config.all({
  webhook_endpoints: quota("QUOTA_WEBHOOK_ENDPOINTS", Quotas.defaults.webhook_endpoints),
  documents: quota("QUOTA_DOCUMENTS", Quotas.defaults.documents),
  campaigns: quota("QUOTA_CAMPAIGNS", Quotas.defaults.campaigns),
  api_keys: quota("QUOTA_API_KEYS", Quotas.defaults.api_keys)
})

/** A price per million tokens in PLN: a number from 0 to 1,000,000, at most six decimals kept. */
const price = (name: string) =>
  Config.number(name).pipe(
    Config.withDefault(0),
    Config.validate({
      message: `${name} must be a price in PLN per million tokens, from 0 to 1000000`,
      validation: (n) => Number.isFinite(n) && n >= 0 && n <= 1_000_000
    })
  )

/** A whole number of a variable within bounds, its default when unset. */
const wholeNumber = (
  name: string,
  fallback: number,
  bounds: { readonly min: number; readonly max: number }
) =>
  Config.integer(name).pipe(
    Config.withDefault(fallback),
    Config.validate({
      message: `${name} must be a whole number from ${bounds.min} to ${bounds.max}`,
      validation: (n) => n >= bounds.min && n <= bounds.max
    })
  )

/** The smallest operator token accepted: shorter ones are too easy to guess. */
export const minAdminTokenLength = 16

/** Reads and validates the configuration; a bad value stops the server with a message that names it. */
export const config: Config.Config<Omit<ServerConfig, "voice">> = Config.all({
  port: Config.integer("PORT").pipe(
    Config.withDefault(8080),
    Config.validate({ message: "PORT must be between 0 and 65535", validation: (p) => p >= 0 && p <= 65535 })
  ),
  host: Config.string("HOST").pipe(Config.withDefault("127.0.0.1")),
  bootstrapApiKey: Config.option(
    Config.redacted("BOOTSTRAP_API_KEY").pipe(
      Config.validate({
        message: "BOOTSTRAP_API_KEY must be vap_ followed by 40 letters and digits",
        validation: (key) => ApiKey.isWellFormed(Redacted.value(key))
      })
    )
  ),
  adminToken: Config.option(
    Config.redacted("ADMIN_TOKEN").pipe(
      Config.validate({
        message: `ADMIN_TOKEN must be at least ${minAdminTokenLength} characters`,
        validation: (token) => Redacted.value(token).length >= minAdminTokenLength
      })
    )
  ),
  runtimeToken: Config.option(
    Config.redacted("RUNTIME_TOKEN").pipe(
      Config.validate({
        message: `RUNTIME_TOKEN must be at least ${minAdminTokenLength} characters`,
        validation: (token) => Redacted.value(token).length >= minAdminTokenLength
      })
    )
  ),
  publicBaseUrl: Config.option(Config.nonEmptyString("PUBLIC_BASE_URL")),
  publicHosts: Config.string("PUBLIC_HOSTS").pipe(
    Config.withDefault(""),
    Config.map((hosts) =>
      hosts
        .split(",")
        .map((host) => host.trim())
        .filter((host) => host !== "")
    )
  ),
  linkSigningSecret: Config.option(
    Config.redacted("LINK_SIGNING_SECRET").pipe(
      Config.validate({
        message: "LINK_SIGNING_SECRET must be at least 32 characters",
        validation: (secret) => new TextEncoder().encode(Redacted.value(secret)).length >= 32
      })
    )
  ),
  dataDir: Config.nonEmptyString("DATA_DIR").pipe(Config.withDefault("./.data")),
  simCallSeconds: Config.number("SIM_CALL_SECONDS").pipe(
    Config.withDefault(SimulationConfig.defaultCallSeconds),
    Config.validate({
      message: `SIM_CALL_SECONDS must be more than 0 and at most ${SimulationConfig.maxCallSeconds}`,
      validation: SimulationConfig.isValidCallSeconds
    })
  ),
  clockOffsetSeconds: ShiftedClock.config,
  s3: s3Config,
  databaseUrl: Config.option(Config.redacted("DATABASE_URL")),
  databaseMaxConnections: Config.integer("DATABASE_MAX_CONNECTIONS").pipe(
    Config.withDefault(10),
    Config.validate({
      message: "DATABASE_MAX_CONNECTIONS must be between 1 and 1000",
      validation: (n) => n >= 1 && n <= 1000
    })
  ),
  serverLimits: HardenedNodeServer.limitsConfig,
  requestDeadline: RequestDeadline.config,
  databaseTimeouts: PgConnection.timeoutsConfig,
  encryptionKey: Config.option(
    Config.redacted("ENCRYPTION_KEY").pipe(
      Config.validate({
        message: "ENCRYPTION_KEY must be at least 32 characters",
        validation: (key) => Redacted.value(key).length >= 32
      })
    )
  ),
  outboundAllowHosts: OutboundPolicy.allowHostsConfig,
  quotas: quotasConfig,
  llmProvider: Config.literal(
    "embedded",
    "openai"
  )("LLM_PROVIDER").pipe(Config.withDefault("embedded" as const)),
  modelPrice: Config.all({
    pln_per_mtok_in: price("LLM_PRICE_PLN_PER_MTOK_IN"),
    pln_per_mtok_out: price("LLM_PRICE_PLN_PER_MTOK_OUT")
  }),
  chatIdleSeconds: wholeNumber("CHAT_IDLE_SECONDS", ChatSettings.defaultIdleSeconds, {
    min: ChatSettings.minIdleSeconds,
    max: ChatSettings.maxIdleSeconds
  }),
  improvementsEveryRuns: wholeNumber(
    "IMPROVEMENTS_EVERY_RUNS",
    AnalysisSettings.defaults.improvementsEveryRuns,
    AnalysisSettings.bounds.improvementsEveryRuns
  ),
  analysisLeaseSeconds: wholeNumber(
    "ANALYSIS_LEASE_SECONDS",
    AnalysisSettings.defaults.leaseSeconds,
    AnalysisSettings.bounds.leaseSeconds
  )
}).pipe(
  Config.mapOrFail((settings) =>
    Option.isSome(settings.databaseUrl) && Option.isNone(settings.encryptionKey)
      ? Either.left(
          ConfigError.MissingData(
            ["ENCRYPTION_KEY"],
            "ENCRYPTION_KEY is required with DATABASE_URL: every server over one database must encrypt secrets with the same key"
          )
        )
      : Either.right(settings)
  )
)

/** The configuration as an effect. */
export const load: Effect.Effect<ServerConfig, ConfigError.ConfigError> = Effect.suspend(() =>
  Effect.zipWith(config, VoiceConfig.load, (settings, voice) => ({ ...settings, voice }))
)
