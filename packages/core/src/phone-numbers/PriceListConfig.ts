import { Context, Layer } from "effect"
import type { PriceList } from "./NumberPricing.js"
import { defaultPriceList } from "./NumberPricing.js"

/** The prices numbers are sold at: configuration, provided by the host application. */
export class PriceListConfig extends Context.Tag("@voice-agent-platform/core/PriceListConfig")<
  PriceListConfig,
  PriceList
>() {}

/** Prices from the host's configuration. */
export const layer = (priceList: PriceList): Layer.Layer<PriceListConfig> =>
  Layer.succeed(PriceListConfig, priceList)

/** The documented default prices (`NumberPricing.defaultPriceList`). */
export const layerDefault: Layer.Layer<PriceListConfig> = layer(defaultPriceList)
