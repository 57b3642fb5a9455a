import type { MetricPair } from "effect"
import { MetricKeyType, MetricState } from "effect"

/** The Prometheus text exposition format's content type. */
export const contentType = "text/plain; version=0.0.4; charset=utf-8"

const escapeLabel = (value: string): string =>
  value.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/"/g, '\\"')

const metricName = (name: string): string => name.replace(/[^a-zA-Z0-9_:]/g, "_")

const labelText = (labels: ReadonlyArray<readonly [string, string]>): string =>
  labels.length === 0
    ? ""
    : `{${labels.map(([key, value]) => `${metricName(key)}="${escapeLabel(value)}"`).join(",")}}`

const numberText = (value: number | bigint): string =>
  typeof value === "bigint"
    ? value.toString()
    : Number.isNaN(value)
      ? "NaN"
      : value === Infinity
        ? "+Inf"
        : value === -Infinity
          ? "-Inf"
          : String(value)

/**
 * Effect's metrics (`Metric.unsafeSnapshot()`) in the Prometheus text format: counters (an `incremental`
 * one; one that may go down is a gauge), gauges and
 * histograms (cumulative buckets with `le`, `_sum`, `_count`); a frequency as a counter per value
 * (label `key`); a summary's quantiles with `quantile`, `_sum`, `_count`. One `# HELP`/`# TYPE` per name.
 */
export const render = (pairs: ReadonlyArray<MetricPair.MetricPair.Untyped>): string => {
  const families = new Map<string, { type: string; help: string | undefined; lines: Array<string> }>()
  const family = (name: string, type: string, help: string | undefined) => {
    let found = families.get(name)
    if (found === undefined) {
      found = { type, help, lines: [] }
      families.set(name, found)
    }
    return found
  }
  for (const { metricKey, metricState } of pairs) {
    const name = metricName(metricKey.name)
    const help = metricKey.description._tag === "Some" ? metricKey.description.value : undefined
    const tags = metricKey.tags.map((label) => [label.key, label.value] as const)
    if (MetricState.isCounterState(metricState)) {
      // Effect's counters may go down unless `incremental` (`effect_fiber_active`): those are gauges to Prometheus
      const type =
        MetricKeyType.isCounterKey(metricKey.keyType) && metricKey.keyType.incremental ? "counter" : "gauge"
      family(name, type, help).lines.push(`${name}${labelText(tags)} ${numberText(metricState.count)}`)
    } else if (MetricState.isGaugeState(metricState)) {
      family(name, "gauge", help).lines.push(`${name}${labelText(tags)} ${numberText(metricState.value)}`)
    } else if (MetricState.isHistogramState(metricState)) {
      const lines = family(name, "histogram", help).lines
      let infinite = false
      for (const [boundary, count] of metricState.buckets) {
        if (boundary === Infinity) infinite = true
        lines.push(`${name}_bucket${labelText([...tags, ["le", numberText(boundary)]])} ${count}`)
      }
      if (!infinite) lines.push(`${name}_bucket${labelText([...tags, ["le", "+Inf"]])} ${metricState.count}`)
      lines.push(`${name}_sum${labelText(tags)} ${numberText(metricState.sum)}`)
      lines.push(`${name}_count${labelText(tags)} ${metricState.count}`)
    } else if (MetricState.isFrequencyState(metricState)) {
      const lines = family(name, "counter", help).lines
      for (const [value, count] of metricState.occurrences) {
        lines.push(`${name}${labelText([...tags, ["key", value]])} ${count}`)
      }
    } else if (MetricState.isSummaryState(metricState)) {
      const lines = family(name, "summary", help).lines
      for (const [quantile, value] of metricState.quantiles) {
        if (value._tag === "Some") {
          lines.push(
            `${name}${labelText([...tags, ["quantile", String(quantile)]])} ${numberText(value.value)}`
          )
        }
      }
      lines.push(`${name}_sum${labelText(tags)} ${numberText(metricState.sum)}`)
      lines.push(`${name}_count${labelText(tags)} ${metricState.count}`)
    }
  }
  let text = ""
  for (const [name, { help, lines, type }] of families) {
    if (help !== undefined) text += `# HELP ${name} ${help.replace(/\\/g, "\\\\").replace(/\n/g, "\\n")}\n`
    text += `# TYPE ${name} ${type}\n${lines.join("\n")}\n`
  }
  return text
}
