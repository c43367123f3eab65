/**
 * A background read load in its own process (so it never shares an event loop with the latency being measured):
 * `node read-load.js '<json>'` with { url, rate, seconds, connections, headers } runs autocannon at a fixed overall
 * request rate and prints one JSON line with what it achieved.
 */
import autocannon from 'autocannon';

const opts = JSON.parse(process.argv[2] ?? '{}') as { url: string; rate: number; seconds: number; connections: number; headers?: Record<string, string> };
const result = await autocannon({
  url: opts.url,
  connections: opts.connections,
  overallRate: opts.rate,
  duration: opts.seconds,
  headers: opts.headers,
});
process.stdout.write(
  `${JSON.stringify({ requests: result.requests.total, perSec: result.requests.average, non2xx: result.non2xx, errors: result.errors, p99: result.latency.p99 })}\n`,
);
