// The latency bench's summary of a set of timings (./latency.ts, ./hops.ts).

export interface LatencyFigures {
  samples: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

/** p50 / p95 / p99 / max of one hop, for the breakdown lines. */
export function describe(ms: number[]): string {
  const f = figures(ms);
  return `p50 ${f.p50.toFixed(1)} / p95 ${f.p95.toFixed(1)} / p99 ${f.p99.toFixed(1)} / max ${f.max.toFixed(1)} ms`;
}

export function figures(ms: number[]): LatencyFigures {
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? NaN;
  return {
    samples: sorted.length,
    p50: at(0.5),
    p95: at(0.95),
    p99: at(0.99),
    max: sorted[sorted.length - 1] ?? NaN,
  };
}
