/**
 * Issue 15 bars (docs/adr/0029), registered in run.ts as the `reach` section: a share image rendered uncached
 * (p99 ≤ 150 ms, sequential requests for fresh answers through the BFF), the same image cached (≥ 90 % of a static
 * file's req/s: the same PNG bytes from a bare @fastify/static) and an owner's feed of 200 answers cached (≥ 70 % of
 * the same bytes served statically). Same-run baselines, measured in turns; load average printed with the figures.
 */
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const DURATION_S = Number(process.env.BENCH_DURATION ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);

async function once(url: string, duration: number): Promise<autocannon.Result> {
  const result = await autocannon({ url, connections: CONNECTIONS, pipelining: 1, duration });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx responses, ${result.errors} errors`);
  return result;
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function pair(baselineUrl: string, targetUrl: string) {
  await once(baselineUrl, 2);
  await once(targetUrl, 2);
  const base: number[] = [];
  const target: number[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    base.push((await once(baselineUrl, DURATION_S)).requests.average);
    target.push((await once(targetUrl, DURATION_S)).requests.average);
  }
  return { baseline: median(base), target: median(target) };
}

export async function runReach(): Promise<Record<string, unknown>> {
  const child = spawn(process.execPath, [fileURLToPath(new URL('./reach-targets.js', import.meta.url))], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, NODE_ENV: 'production' },
  });
  try {
    const urls = await new Promise<{ bffUrl: string; bareStatic: string; cachedImage: string; feedPath: string; uncached: string[]; pngBytes: number; feedBytes: number }>(
      (resolve, reject) => {
        createInterface({ input: child.stdout }).once('line', (line) => resolve(JSON.parse(line)));
        child.once('exit', (code) => reject(new Error(`reach-targets exited with ${code}`)));
      },
    );
    const load = loadavg().map((l) => l.toFixed(2)).join(', ');

    // Uncached: each a fresh answer (first 5 warm the fonts and code paths and are not counted).
    const samples: number[] = [];
    for (const [i, path] of urls.uncached.entries()) {
      const started = performance.now();
      const res = await fetch(`${urls.bffUrl}${path}`);
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
      if (i >= 5) samples.push(performance.now() - started);
    }
    samples.sort((a, b) => a - b);
    const p50 = samples[Math.floor(samples.length * 0.5)]!;
    const p99 = samples[Math.min(samples.length - 1, Math.ceil(samples.length * 0.99) - 1)]!;
    const renderOk = p99 <= 150;
    console.log(`${renderOk ? 'PASS' : 'MISS'}  Share image render, uncached (${samples.length} fresh answers, sequential, through the BFF): p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms (bar p99 ≤ 150 ms; load average ${load})`);

    const image = await pair(`${urls.bareStatic}/image.png`, `${urls.bffUrl}${urls.cachedImage}`);
    const imageRatio = image.target / image.baseline;
    const imageOk = imageRatio >= 0.9;
    console.log(`${imageOk ? 'PASS' : 'MISS'}  Share image cached (${urls.pngBytes} B PNG): BFF ${Math.round(image.target)} req/s vs bare @fastify/static ${Math.round(image.baseline)} req/s = ${(imageRatio * 100).toFixed(1)} % (bar ≥ 90 %)`);

    const feed = await pair(`${urls.bareStatic}/feed.atom`, `${urls.bffUrl}${urls.feedPath}`);
    const feedRatio = feed.target / feed.baseline;
    const feedOk = feedRatio >= 0.7;
    console.log(`${feedOk ? 'PASS' : 'MISS'}  Atom feed of an owner with 200 answers, cached (${urls.feedBytes} B): BFF ${Math.round(feed.target)} req/s vs bare @fastify/static ${Math.round(feed.baseline)} req/s = ${(feedRatio * 100).toFixed(1)} % (bar ≥ 70 %; load average now ${loadavg().map((l) => l.toFixed(2)).join(', ')})\n`);
    return { name: 'reach', load, render: { p50, p99, ok: renderOk }, image: { ...image, ratio: imageRatio, ok: imageOk }, feed: { ...feed, ratio: feedRatio, ok: feedOk } };
  } finally {
    child.kill('SIGTERM');
  }
}
