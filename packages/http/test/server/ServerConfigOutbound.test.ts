import { describe, expect, it } from "@effect/vitest"
import { AllowList, IpAddress } from "@voice-agent-platform/core"
import { ConfigProvider, Effect, Either, Option } from "effect"
import * as ServerConfig from "../../src/server/ServerConfig.js"

const load = (env: Record<string, string>) =>
  Effect.either(
    ServerConfig.load.pipe(Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env)))))
  )

describe("OUTBOUND_ALLOW_HOSTS", () => {
  it.effect("is empty by default: only public destinations", () =>
    Effect.gen(function* () {
      const config = Either.getOrThrow(yield* load({}))
      expect(config.outboundAllowHosts).toEqual(AllowList.empty)
    })
  )

  it.effect("reads host names, addresses and CIDR ranges", () =>
    Effect.gen(function* () {
      const config = Either.getOrThrow(
        yield* load({ OUTBOUND_ALLOW_HOSTS: "127.0.0.1,10.0.0.0/8,crm.internal" })
      )
      const allowed = config.outboundAllowHosts
      expect(AllowList.allowsName(allowed, "crm.internal")).toBe(true)
      const address = (text: string) => Option.getOrThrow(IpAddress.parseHost(text))
      expect(AllowList.allowsAddress(allowed, address("127.0.0.1"))).toBe(true)
      expect(AllowList.allowsAddress(allowed, address("10.20.30.40"))).toBe(true)
      expect(AllowList.allowsAddress(allowed, address("192.168.0.1"))).toBe(false)
    })
  )

  it.effect("stops the server naming the variable and the bad entry", () =>
    Effect.gen(function* () {
      const failed = yield* load({ OUTBOUND_ALLOW_HOSTS: "127.0.0.1,10.0.0.0/40" })
      expect(Either.isLeft(failed)).toBe(true)
      expect(String(Either.isLeft(failed) ? failed.left : "")).toContain(
        'OUTBOUND_ALLOW_HOSTS: "10.0.0.0/40" is not a CIDR range'
      )
    })
  )
})
