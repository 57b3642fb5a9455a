import { describe, expect, it } from "@effect/vitest"
import { PgConnection } from "@voice-agent-platform/pg"
import { ConfigProvider, Duration, Effect, Either } from "effect"
import * as RequestDeadline from "../../src/middleware/RequestDeadline.js"
import * as HardenedNodeServer from "../../src/server/HardenedNodeServer.js"
import * as ServerConfig from "../../src/server/ServerConfig.js"

/** Reads the server's configuration from exactly these variables. */
const loadFrom = (entries: Record<string, string>) =>
  Effect.withConfigProvider(ServerConfig.load, ConfigProvider.fromMap(new Map(Object.entries(entries))))

const seconds = (d: Duration.DurationInput) => Duration.toMillis(d) / 1000

describe("deadline settings", () => {
  it.effect("have their documented defaults", () =>
    Effect.gen(function* () {
      const config = yield* loadFrom({})
      expect(seconds(config.serverLimits.headersTimeout)).toBe(10)
      expect(seconds(config.serverLimits.requestBodyTimeout)).toBe(60)
      expect(seconds(config.serverLimits.keepAliveTimeout)).toBe(5)
      expect(config.serverLimits.maxHeaderBytes).toBe(16384)
      expect(seconds(config.serverLimits.shutdownDeadline)).toBe(10)
      expect(seconds(config.requestDeadline)).toBe(30)
      expect(seconds(config.databaseTimeouts.connectTimeout)).toBe(10)
      expect(Duration.toMillis(config.databaseTimeouts.statementTimeout)).toBe(60_000)
      expect(Duration.toMillis(config.databaseTimeouts.idleInTransactionTimeout)).toBe(60_000)
    })
  )

  it.effect("are read from the environment, fractions allowed; 0 turns the request deadline off", () =>
    Effect.gen(function* () {
      const config = yield* loadFrom({
        HEADERS_TIMEOUT_SECONDS: "0.5",
        REQUEST_BODY_TIMEOUT_SECONDS: "120",
        KEEP_ALIVE_TIMEOUT_SECONDS: "2",
        MAX_HEADER_BYTES: "32768",
        SHUTDOWN_DEADLINE_SECONDS: "3",
        REQUEST_DEADLINE_SECONDS: "0",
        DATABASE_CONNECT_TIMEOUT_SECONDS: "4",
        DATABASE_STATEMENT_TIMEOUT_MS: "0",
        DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: "1500"
      })
      expect(seconds(config.serverLimits.headersTimeout)).toBe(0.5)
      expect(seconds(config.serverLimits.requestBodyTimeout)).toBe(120)
      expect(seconds(config.serverLimits.keepAliveTimeout)).toBe(2)
      expect(config.serverLimits.maxHeaderBytes).toBe(32768)
      expect(seconds(config.serverLimits.shutdownDeadline)).toBe(3)
      expect(Duration.isFinite(config.requestDeadline)).toBe(false)
      expect(seconds(config.databaseTimeouts.connectTimeout)).toBe(4)
      expect(Duration.toMillis(config.databaseTimeouts.statementTimeout)).toBe(0)
      expect(Duration.toMillis(config.databaseTimeouts.idleInTransactionTimeout)).toBe(1500)
    })
  )

  it.effect("refuse values that cannot work, naming the variable", () =>
    Effect.gen(function* () {
      const refused = (entries: Record<string, string>) =>
        Effect.map(Effect.either(loadFrom(entries)), (result) =>
          Either.isLeft(result) ? String(result.left) : "accepted"
        )
      expect(yield* refused({ HEADERS_TIMEOUT_SECONDS: "0" })).toMatch(/HEADERS_TIMEOUT_SECONDS/)
      expect(yield* refused({ KEEP_ALIVE_TIMEOUT_SECONDS: "soon" })).toMatch(/KEEP_ALIVE_TIMEOUT_SECONDS/)
      expect(yield* refused({ HEADERS_TIMEOUT_SECONDS: "30", REQUEST_BODY_TIMEOUT_SECONDS: "20" })).toMatch(
        /REQUEST_BODY_TIMEOUT_SECONDS must be at least HEADERS_TIMEOUT_SECONDS/
      )
      expect(yield* refused({ MAX_HEADER_BYTES: "100" })).toMatch(/MAX_HEADER_BYTES/)
      expect(yield* refused({ REQUEST_DEADLINE_SECONDS: "-1" })).toMatch(/REQUEST_DEADLINE_SECONDS/)
      expect(yield* refused({ DATABASE_CONNECT_TIMEOUT_SECONDS: "0" })).toMatch(
        /DATABASE_CONNECT_TIMEOUT_SECONDS/
      )
      expect(yield* refused({ DATABASE_STATEMENT_TIMEOUT_MS: "-5" })).toMatch(/DATABASE_STATEMENT_TIMEOUT_MS/)
    })
  )

  it("gives Node options that apply the limits and check them often enough", () => {
    const options = HardenedNodeServer.serverOptions({
      ...HardenedNodeServer.defaultLimits,
      headersTimeout: Duration.seconds(2),
      requestBodyTimeout: Duration.seconds(1)
    })
    // Node refuses a header deadline past the request's: the request deadline is raised to it
    expect(options.headersTimeout).toBe(2000)
    expect(options.requestTimeout).toBe(2000)
    expect(options.keepAliveTimeout).toBe(5000)
    expect(options.maxHeaderSize).toBe(16384)
    expect(options.connectionsCheckingInterval).toBeLessThanOrEqual(500)
  })

  it("answers each client error with its status and a detail", () => {
    expect(HardenedNodeServer.clientErrorAnswer("HPE_HEADER_OVERFLOW", false).status).toBe(431)
    expect(HardenedNodeServer.clientErrorAnswer("ERR_HTTP_REQUEST_TIMEOUT", false).detail).toMatch(/headers/)
    expect(HardenedNodeServer.clientErrorAnswer("ERR_HTTP_REQUEST_TIMEOUT", true).detail).toMatch(/body/)
    expect(HardenedNodeServer.clientErrorAnswer("HPE_INVALID_METHOD", false).status).toBe(400)
    expect(RequestDeadline.timedOut(Duration.seconds(30)).status).toBe(503)
    expect(PgConnection.defaultTimeouts.connectTimeout).toEqual(Duration.seconds(10))
  })
})
