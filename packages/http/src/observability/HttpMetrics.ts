import { Metric, MetricBoundaries } from "effect"
import type { MetricLabel } from "effect"
import * as MetricLabelModule from "effect/MetricLabel"

/** Requests answered, by route template, method and status. */
export const requests = Metric.counter("vap_http_requests_total", {
  description: "HTTP requests answered, by route template, method and status",
  incremental: true
})

/** How long requests took to be answered (seconds), by route template and method. */
export const duration = Metric.histogram(
  "vap_http_request_duration_seconds",
  MetricBoundaries.fromIterable([0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30]),
  "Time to answer HTTP requests, by route template and method"
)

/**
 * Labels are built once per route, method and status and kept: there are as many as there are
 * operations × methods × statuses (route templates only, never raw paths), so the cache is bounded.
 */
const labelCache = new Map<string, ReadonlyArray<MetricLabel.MetricLabel>>()

const labels = (key: string, build: () => ReadonlyArray<MetricLabel.MetricLabel>) => {
  let found = labelCache.get(key)
  if (found === undefined) {
    found = build()
    labelCache.set(key, found)
  }
  return found
}

/** Counts one answered request and its duration; synchronous, no allocation once its labels are known. */
export const record = (route: string, method: string, status: number, seconds: number): void => {
  const routeLabels = labels(`${method} ${route}`, () => [
    MetricLabelModule.make("route", route),
    MetricLabelModule.make("method", method)
  ])
  const statusLabels = labels(`${method} ${route} ${status}`, () => [
    ...routeLabels,
    MetricLabelModule.make("status", String(status))
  ])
  requests.unsafeUpdate(1, statusLabels)
  duration.unsafeUpdate(seconds, routeLabels)
}
