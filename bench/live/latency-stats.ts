/** Percentiles (nearest rank) and range of latency samples in ms, rounded to whole ms. */
export function summarize(samples: readonly number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = (p: number) =>
    sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
  const round = (value: number | undefined) => (value === undefined ? null : Math.round(value));
  return {
    count: sorted.length,
    p50: round(rank(50)),
    p95: round(rank(95)),
    min: round(sorted[0]),
    max: round(sorted.at(-1)),
  };
}
