/**
 * A latency histogram in 0.1 ms buckets up to 60 s (larger values land in the last bucket, and the
 * exact maximum is kept aside). Fixed memory whatever the number of samples, and mergeable across
 * processes as a list of non-empty buckets.
 */
export const BUCKET_MS = 0.1;
const BUCKETS = 600_000;

export interface HistogramData {
  /** [bucket index, count] of the non-empty buckets. */
  buckets: Array<[number, number]>;
  count: number;
  sumMs: number;
  maxMs: number;
  minMs: number;
}

export class Histogram {
  private counts = new Uint32Array(BUCKETS + 1);
  count = 0;
  sumMs = 0;
  maxMs = Number.NEGATIVE_INFINITY;
  minMs = Number.POSITIVE_INFINITY;

  record(ms: number) {
    // A sample can be slightly negative only through clock error; it counts as 0.
    const bucket = Math.min(BUCKETS, Math.max(0, Math.floor(ms / BUCKET_MS)));
    this.counts[bucket]!++;
    this.count++;
    this.sumMs += ms;
    if (ms > this.maxMs) this.maxMs = ms;
    if (ms < this.minMs) this.minMs = ms;
  }

  merge(data: HistogramData) {
    for (const [bucket, count] of data.buckets) this.counts[bucket]! += count;
    this.count += data.count;
    this.sumMs += data.sumMs;
    this.maxMs = Math.max(this.maxMs, data.maxMs);
    this.minMs = Math.min(this.minMs, data.minMs);
  }

  toData(): HistogramData {
    const buckets: Array<[number, number]> = [];
    for (let i = 0; i < this.counts.length; i++) if (this.counts[i]) buckets.push([i, this.counts[i]!]);
    return { buckets, count: this.count, sumMs: this.sumMs, maxMs: this.maxMs, minMs: this.minMs };
  }

  /** The upper edge of the bucket holding the q-quantile (q in 0..1), in ms; null when empty. */
  quantile(q: number): number | null {
    if (this.count === 0) return null;
    const rank = Math.max(1, Math.ceil(q * this.count));
    let seen = 0;
    for (let i = 0; i < this.counts.length; i++) {
      seen += this.counts[i]!;
      if (seen >= rank) return Math.min((i + 1) * BUCKET_MS, this.maxMs);
    }
    return this.maxMs;
  }

  summary() {
    const round = (value: number | null) => (value === null ? null : Math.round(value * 10) / 10);
    return {
      samples: this.count,
      p50Ms: round(this.quantile(0.5)),
      p90Ms: round(this.quantile(0.9)),
      p95Ms: round(this.quantile(0.95)),
      p99Ms: round(this.quantile(0.99)),
      maxMs: round(this.count ? this.maxMs : null),
      meanMs: round(this.count ? this.sumMs / this.count : null),
    };
  }
}
