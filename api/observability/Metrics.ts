/**
 * Prometheus metrics for GET /metrics: requests by route and status, latency histograms by route,
 * quota rejections by window, authentication refusals by code, requests in flight. A dozen lines
 * of exposition format do not justify a client library.
 */
import { monitorEventLoopDelay } from "node:perf_hooks"
import { Effect } from "effect"

const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120]

const label = (v: string) => v.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n")

interface Histogram {
  readonly counts: Array<number>
  sum: number
  count: number
}

export class Metrics extends Effect.Service<Metrics>()("api/Metrics", {
  scoped: Effect.gen(function* () {
    // Event-loop delay since the previous scrape: the one number that shows CPU work on the loop.
    const loopDelay = yield* Effect.acquireRelease(
      Effect.sync(() => {
        const h = monitorEventLoopDelay({ resolution: 10 })
        h.enable()
        return h
      }),
      (h) => Effect.sync(() => h.disable())
    )
    const requests = new Map<string, number>()
    const latency = new Map<string, Histogram>()
    const quotaRejections = new Map<string, number>()
    const authRefusals = new Map<string, number>()
    const inc = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1)

    return {
      observeRequest: (route: string, method: string, status: number, seconds: number) => {
        inc(requests, `route="${label(route)}",method="${method}",status="${status}"`)
        const key = `route="${label(route)}",method="${method}"`
        let h = latency.get(key)
        if (!h) latency.set(key, (h = { counts: BUCKETS.map(() => 0), sum: 0, count: 0 }))
        BUCKETS.forEach((b, i) => {
          if (seconds <= b) h!.counts[i]++
        })
        h.sum += seconds
        h.count++
      },
      observeQuotaRejection: (limit: string) => inc(quotaRejections, `limit="${label(limit)}"`),
      observeAuthRefusal: (code: string) => inc(authRefusals, `code="${label(code)}"`),
      render: (inFlight: number) => {
        const lines: Array<string> = []
        lines.push("# HELP api_requests_total Requests answered, by route template, method and status.", "# TYPE api_requests_total counter")
        for (const [k, v] of requests) lines.push(`api_requests_total{${k}} ${v}`)
        lines.push("# HELP api_request_duration_seconds Time to answer, by route template.", "# TYPE api_request_duration_seconds histogram")
        for (const [k, h] of latency) {
          BUCKETS.forEach((b, i) => lines.push(`api_request_duration_seconds_bucket{${k},le="${b}"} ${h.counts[i]}`))
          lines.push(`api_request_duration_seconds_bucket{${k},le="+Inf"} ${h.count}`)
          lines.push(`api_request_duration_seconds_sum{${k}} ${h.sum}`, `api_request_duration_seconds_count{${k}} ${h.count}`)
        }
        lines.push("# HELP api_quota_rejections_total Requests refused with 429, by the window that fired.", "# TYPE api_quota_rejections_total counter")
        for (const [k, v] of quotaRejections) lines.push(`api_quota_rejections_total{${k}} ${v}`)
        lines.push("# HELP api_auth_refusals_total Requests refused by authentication, by code.", "# TYPE api_auth_refusals_total counter")
        for (const [k, v] of authRefusals) lines.push(`api_auth_refusals_total{${k}} ${v}`)
        lines.push("# HELP api_requests_in_flight Requests being answered now.", "# TYPE api_requests_in_flight gauge", `api_requests_in_flight ${inFlight}`)
        lines.push("# HELP api_event_loop_delay_seconds Event-loop delay since the previous scrape (quantile 1 is the maximum).", "# TYPE api_event_loop_delay_seconds gauge")
        for (const [q, ns] of [["0.5", loopDelay.percentile(50)], ["0.99", loopDelay.percentile(99)], ["1", loopDelay.max]] as const) {
          lines.push(`api_event_loop_delay_seconds{quantile="${q}"} ${Number.isFinite(ns) ? ns / 1e9 : 0}`)
        }
        loopDelay.reset()
        return lines.join("\n") + "\n"
      }
    }
  })
}) {}
