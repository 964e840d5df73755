// The request-duration histogram, counted by Kiln rather than by prom-client's Histogram, whose
// observe() validates, sorts and joins the label names on every call: ~1.5 µs, 2–3 % of a cached
// read and of an alert (CPU profiles of the bench). Here a request adds to the counters of its
// series, found by one string key. The registry reads it as any metric (prom-client calls `get()`
// and writes the text format), so /metrics shows the same series, buckets, sums and counts.
import type { Registry } from 'prom-client';

export interface RequestLabels {
  method: string;
  route: string;
  status: string;
}

interface Series {
  labels: RequestLabels;
  /** Observations per bucket (not cumulative); the last slot is above every bound. */
  counts: number[];
  sum: number;
  count: number;
}

export class RequestHistogram {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  /** Every series, in the order first seen (the exposition's order). */
  private series: Series[] = [];
  private readonly byRoute = new Map<string, Map<string, Map<string, Series>>>();

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly buckets: readonly number[],
    registry: Registry,
  ) {
    registry.registerMetric(this as never);
  }

  observe(labels: RequestLabels, seconds: number): void {
    if (!Number.isFinite(seconds)) return;
    // Found by route, then method, then status: the route's name is a constant string whose hash V8
    // keeps, where one key joined from the three was a new string to hash on every request.
    let byMethod = this.byRoute.get(labels.route);
    if (byMethod === undefined) this.byRoute.set(labels.route, (byMethod = new Map()));
    let byStatus = byMethod.get(labels.method);
    if (byStatus === undefined) byMethod.set(labels.method, (byStatus = new Map()));
    let series = byStatus.get(labels.status);
    if (series === undefined) {
      series = { labels: { method: labels.method, route: labels.route, status: labels.status }, counts: new Array<number>(this.buckets.length + 1).fill(0), sum: 0, count: 0 };
      byStatus.set(labels.status, series);
      this.series.push(series);
    }
    let bucket = 0;
    while (bucket < this.buckets.length && seconds > this.buckets[bucket]!) bucket += 1;
    series.counts[bucket]! += 1;
    series.sum += seconds;
    series.count += 1;
  }

  /** prom-client's metric shape: cumulative `_bucket` values by `le` (then +Inf), `_sum`, `_count`. */
  async get() {
    const values: Array<{ labels: Record<string, string | number>; value: number; metricName: string }> = [];
    for (const { labels, counts, sum, count } of this.series) {
      let cumulative = 0;
      this.buckets.forEach((bound, index) => {
        cumulative += counts[index]!;
        values.push({ labels: { le: bound, ...labels }, value: cumulative, metricName: `${this.name}_bucket` });
      });
      values.push({ labels: { le: '+Inf', ...labels }, value: count, metricName: `${this.name}_bucket` });
      values.push({ labels: { ...labels }, value: sum, metricName: `${this.name}_sum` });
      values.push({ labels: { ...labels }, value: count, metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }

  reset(): void {
    this.series = [];
    this.byRoute.clear();
  }
}
