import { createHash } from "node:crypto"

/**
 * The lower-case hex SHA-256 of an API key, computed at once with Node's `createHash`: the same value as
 * `ApiKey.hash` (Web Crypto, which core uses to stay free of Node), without its promise and its trip
 * through Web Crypto's job queue on every authenticated request (10% of the engine's samples under
 * `bench:http` on PostgreSQL).
 */
export const sha256Hex = (key: string): string => createHash("sha256").update(key, "utf8").digest("hex")
