import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Either, Option, Redacted } from "effect"
import * as ServerConfig from "../../src/server/ServerConfig.js"

describe("S3 server configuration", () => {
  const read = (env: Record<string, string>) =>
    Effect.withConfigProvider(
      Effect.either(ServerConfig.load),
      ConfigProvider.fromMap(new Map(Object.entries(env)))
    ).pipe(Effect.map(Either.map((config) => config.s3)))

  it.effect("keeps files on disk without S3_BUCKET, and needs the key pair with it", () =>
    Effect.gen(function* () {
      expect(yield* read({})).toEqual(Either.right(Option.none()))
      const keys = { S3_BUCKET: "b", S3_ACCESS_KEY_ID: "id", S3_SECRET_ACCESS_KEY: "secret" }
      const s3 = Option.getOrThrow(Either.getOrThrow(yield* read(keys)))
      expect({ ...s3, secretAccessKey: Redacted.value(s3.secretAccessKey) }).toEqual({
        bucket: "b",
        region: "us-east-1",
        endpoint: "https://s3.us-east-1.amazonaws.com",
        accessKeyId: "id",
        secretAccessKey: "secret"
      })
      expect(
        Option.getOrThrow(
          Either.getOrThrow(yield* read({ ...keys, S3_REGION: "auto", S3_ENDPOINT: "http://127.0.0.1:9000" }))
        )
      ).toMatchObject({ region: "auto", endpoint: "http://127.0.0.1:9000" })
      expect(String(Either.getLeft(yield* read({ S3_BUCKET: "b", S3_ACCESS_KEY_ID: "id" })))).toContain(
        "S3_SECRET_ACCESS_KEY"
      )
      expect(String(Either.getLeft(yield* read({ ...keys, S3_ENDPOINT: "http://minio:9000/x" })))).toContain(
        "S3_ENDPOINT must be"
      )
    })
  )
})
