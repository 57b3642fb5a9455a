import type { SqlClient } from "@effect/sql"
import { OAuthProvidersConfig, Quotas, SimulatedEngine } from "@voice-agent-platform/core"
import * as MemoryBlobStore from "@voice-agent-platform/core/memory/MemoryBlobStore.js"
import { EmbeddedPostgres, PgConnection, PgStorage, SecretBox } from "@voice-agent-platform/pg"
import { Effect, Layer, Option } from "effect"
import { join } from "node:path"
import * as ServerConfig from "../server/ServerConfig.js"

/**
 * The database `vap` works on, configured exactly as the bundled server is: `DATABASE_URL`, or the
 * embedded database under `DATA_DIR` (which the server must not hold at the same time).
 */
export const database = Layer.unwrapEffect(
  Effect.map(ServerConfig.load, (config) =>
    Option.match(config.databaseUrl, {
      onNone: (): Layer.Layer<SqlClient.SqlClient, unknown> =>
        EmbeddedPostgres.layer({ dataDirectory: join(config.dataDir, "postgres") }),
      onSome: (url) => PgConnection.layer({ url, maxConnections: 2, ...config.databaseTimeouts })
    })
  )
)

/**
 * The engine's services over that database (migrations applied, secrets opened with the server's key),
 * for the operator's commands. Files stay in memory: no command reads or writes one.
 */
export const engine = Layer.unwrapEffect(
  Effect.map(ServerConfig.load, (config) => {
    const secretBox = Option.match(config.encryptionKey, {
      onNone: () => SecretBox.layerKeyFile(join(config.dataDir, "encryption.key")),
      onSome: SecretBox.layer
    })
    return SimulatedEngine.layer(PgStorage.layer.pipe(Layer.provide(secretBox)), MemoryBlobStore.layer).pipe(
      Layer.provide(OAuthProvidersConfig.layerConfig),
      Layer.provide(Quotas.layer(config.quotas)),
      Layer.provideMerge(database)
    )
  })
)
