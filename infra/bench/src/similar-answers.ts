/**
 * Issue 14's bar for "already answered?": `GET /api/asking/similar/{username}?q=` p99 ≤ 20 ms on an owner with 2,000
 * public answers among 20,000 questions (src/similar-targets.ts seeds them from a vocabulary of ~400 words). Measured
 * on the questions service (the BFF adds a per-client rate limit a load generator would trip), for the kinds of
 * search the modal makes while someone types: one frequent word, the oldest answer's title (its words are frequent,
 * the match is found among many), a half-typed word, and the same title with a typo in every word (no full-text hit:
 * the pg_trgm fallback).
 * `SIMILAR_CONNECTIONS` (4) concurrent askers typing, no pipelining, a 2 s warm-up, then the median of `BENCH_RUNS`.
 */
import autocannon from 'autocannon';

const BAR_P99_MS = 20;
const CONNECTIONS = Number(process.env.SIMILAR_CONNECTIONS ?? 4);

export interface SimilarRow {
  name: string;
  query: string;
  reqPerSec: number;
  p50: number;
  p99: number;
  ok: boolean;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function load(url: string, duration: number): Promise<autocannon.Result> {
  const result = await autocannon({ url, connections: CONNECTIONS, pipelining: 1, duration });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx responses, ${result.errors} errors`);
  return result;
}

/** Runs the searches against `questionsUrl` for `owner`; prints PASS/MISS lines and returns the rows. */
export async function runSimilarAnswers(
  targets: Record<string, string | number>,
  { runs, durationS }: { runs: number; durationS: number },
): Promise<SimilarRow[]> {
  const title = String(targets.oldestTitle).replace(/^How do I /, '').replace(/\?$/, '');
  // One letter dropped from each word (past its first two): no word is a prefix of a real one any more.
  const typo = title
    .split(' ')
    .map((w) => (w.length > 4 ? w.slice(0, 2) + w.slice(3) : `${w}x`))
    .join(' ');
  const searches = [
    { name: 'one frequent word', query: 'pricing' },
    { name: "the oldest answer's title (FTS)", query: title },
    { name: 'a half-typed word (FTS prefix)', query: title.split(' ').sort((a, b) => b.length - a.length)[0]!.slice(0, 4) },
    { name: 'the same title, a typo in every word (pg_trgm fallback)', query: typo },
  ];
  const rows: SimilarRow[] = [];
  for (const search of searches) {
    const url = `${targets.questionsUrl}/api/asking/similar/${targets.owner}?q=${encodeURIComponent(search.query)}`;
    const found = (await (await fetch(url)).json()) as unknown[];
    if (!Array.isArray(found) || found.length === 0) throw new Error(`${url}: found nothing (the search is not exercised)`);
    await load(url, 2);
    const results: autocannon.Result[] = [];
    for (let i = 0; i < runs; i += 1) results.push(await load(url, durationS));
    const p99 = median(results.map((r) => r.latency.p99));
    const row = {
      name: search.name,
      query: search.query,
      reqPerSec: Math.round(median(results.map((r) => r.requests.average))),
      p50: median(results.map((r) => r.latency.p50)),
      p99,
      ok: p99 <= BAR_P99_MS,
    };
    console.log(
      `${row.ok ? 'PASS' : 'MISS'}  Similar answers, ${row.name}: p99 ${row.p99} ms (bar ≤ ${BAR_P99_MS} ms), p50 ${row.p50} ms, ${row.reqPerSec} req/s at ${CONNECTIONS} connections`,
    );
    rows.push(row);
  }
  console.log('');
  return rows;
}
