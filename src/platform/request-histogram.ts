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
  private series = new Map<string, Series>();

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
    const key = `${labels.method}\u0000${labels.route}\u0000${labels.status}`;
    let series = this.series.get(key);
    if (series === undefined) {
      series = { labels: { method: labels.method, route: labels.route, status: labels.status }, counts: new Array<number>(this.buckets.length + 1).fill(0), sum: 0, count: 0 };
      this.series.set(key, series);
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
    for (const { labels, counts, sum, count } of this.series.values()) {
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
    this.series.clear();
  }
}
