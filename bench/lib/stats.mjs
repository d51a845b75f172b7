// Order statistics for benchmark samples. Percentiles use the nearest-rank method so
// every reported figure is a time that was actually measured.

/** The q-quantile (0..1) of `samples` by nearest rank. */
export function quantile(samples, q) {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((left, right) => left - right);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank];
}

/** Median, p95, mean, min, max and count of `samples`. */
export function summarize(samples) {
  const sum = samples.reduce((total, value) => total + value, 0);
  return {
    n: samples.length,
    p50: quantile(samples, 0.5),
    p95: quantile(samples, 0.95),
    mean: samples.length ? sum / samples.length : Number.NaN,
    min: samples.length ? Math.min(...samples) : Number.NaN,
    max: samples.length ? Math.max(...samples) : Number.NaN,
  };
}

/** `value / reference`, or null when either side is missing. */
export function ratio(value, reference) {
  if (value === undefined || reference === undefined || value === null || reference === null) return null;
  if (!Number.isFinite(value) || !Number.isFinite(reference) || reference === 0) return null;
  return value / reference;
}
