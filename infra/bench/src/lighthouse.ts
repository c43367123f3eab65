/**
 * Lighthouse (mobile preset, simulated throttling) on the public pages of the production build served by the BFF:
 * the embedded product (`npm start`'s entry) runs in a child process on a throwaway data folder, is seeded through
 * its own /api (an owner with an avatar, a bio and 20 answered public questions), and each page is audited
 * LIGHTHOUSE_RUNS (3) times in a fresh headless Chromium. The asker's private pages (issue 28: the confirmation after
 * asking, the status page of an answered question) are audited too; they are `noindex` on purpose, so SEO is no bar there. Every figure is the median of the runs; the reports of
 * every run go to test-artifacts/lighthouse/.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { questionSlug } from '@ques/contracts';

const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 3);
const CHROME_PATH = process.env.CHROME_PATH || process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const CHROME_FLAGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking'];
const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const LIGHTHOUSE_DIR = join(REPO_ROOT, 'test-artifacts', 'lighthouse');

/** The bars of quality-bars.md (CWV "good" lines, tightened). Scores are 0–100, times in ms. */
export const LIGHTHOUSE_BARS = {
  performance: 98,
  lcpMs: 1200,
  tbtMs: 50,
  cls: 0.01,
  accessibility: 100,
  bestPractices: 100,
  seo: 100,
} as const;

export interface PageFigures {
  page: string;
  url: string;
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  /** Bytes over the wire for the page's scripts (Lighthouse's network records, median run). */
  scriptBytes: number;
  runs: { performance: number; lcpMs: number }[];
  ok: boolean;
  misses: string[];
}

const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** The embedded product on a free port, until `stop()`. */
async function startProduct(): Promise<{ url: string; stop: () => void; proc: ChildProcess }> {
  const launcher = fileURLToPath(new URL('../../launcher/dist/main.js', import.meta.url));
  const port = 3800 + Math.floor(Math.random() * 90);
  const dataDir = mkdtempSync(join(tmpdir(), 'ques-lighthouse-'));
  const proc = spawn(process.execPath, [launcher], {
    // localhost, not 127.0.0.1: the product's public origin (canonical URLs) is http://localhost:{port}.
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    proc.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('Ques is running') && resolve());
    proc.once('exit', (code) => reject(new Error(`embedded product exited with ${code}`)));
  });
  return {
    url: `http://localhost:${port}`,
    proc,
    stop: () => {
      proc.kill('SIGTERM');
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function call(base: string, method: string, path: string, body?: unknown, token?: string) {
  // A browser's device token on every call: guests without one share one bucket of the guest limit (ADR 0054).
  const headers: Record<string, string> = { 'x-ques-device': `device-${randomUUID().replace(/-/g, '')}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(`${base}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

const TOPICS = ['pricing', 'delivery', 'consulting', 'process', 'tools'];

/**
 * An owner as a visitor meets one: name, bio, an uploaded avatar, 20 answered public questions with tags and
 * answers of a realistic length. Returns the paths of the three audited pages.
 */
async function seed(base: string): Promise<Record<string, string>> {
  const signup = await call(base, 'POST', '/api/users', {
    name: 'Lena Fischer',
    email: 'lena@example.com',
    password: 'a long enough password',
  });
  if (signup.status !== 201) throw new Error(`signup failed: ${signup.status}`);
  const token: string = signup.body.token;
  const { id: ownerId, username } = signup.body.user as { id: string; username: string };
  await call(
    base,
    'PUT',
    '/api/users/profile',
    {
      name: 'Lena Fischer',
      bio: 'Product designer and consultant. I help small teams ship calm, fast software — ask me about pricing, process and tools.',
    },
    token,
  );
  const image = readFileSync(join(REPO_ROOT, 'web', 'public', 'images', 'og-default.png'));
  const form = new FormData();
  form.append('avatar', new Blob([image], { type: 'image/png' }), 'avatar.png');
  const avatar = await fetch(`${base}/api/users/avatar`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  if (!avatar.ok) throw new Error(`avatar upload failed: ${avatar.status}`);

  // Questions learns about the owner from identity's event (in-process bus: moments): let it arrive, so the asks
  // below do not spend the per-client limit on retries.
  await new Promise((r) => setTimeout(r, 300));
  const ids: { id: string; question: string; statusToken: string }[] = [];
  for (let i = 1; i <= 22; i += 1) {
    const question = `How do you approach ${TOPICS[i % TOPICS.length]} for a project like number ${i}?`;
    const body = {
      question,
      detail: i % 3 === 0 ? 'We are a team of five and launch in spring.' : '',
      tip: 0,
      isCurated: false,
      toUsername: username,
      recipientName: 'Lena Fischer',
      toUserId: ownerId,
      fromUsername: 'guest',
      askedName: `Guest ${i}`,
      askedEmail: `guest${i}@example.com`,
      yourName: `Guest ${i}`,
      yourEmail: `guest${i}@example.com`,
      agreedToTerms: true,
      // The status link the browser makes when it asks (ADR 0052): the asker's private pages below.
      statusToken: randomBytes(32).toString('base64url'),
    };
    // Questions learns about the owner from identity's event: retry until it has.
    let asked = await call(base, 'POST', '/api/questions', body);
    for (let attempt = 0; asked.status !== 201 && attempt < 50; attempt += 1) {
      await new Promise((r) => setTimeout(r, 100));
      asked = await call(base, 'POST', '/api/questions', body);
    }
    if (asked.status !== 201) throw new Error(`ask failed: ${asked.status} ${JSON.stringify(asked.body)}`);
    ids.push({ id: asked.body._id as string, question, statusToken: body.statusToken });
  }
  // The last one stays pending: its confirmation page is what an asker sees right after asking.
  const pending = ids.pop()!;
  for (const [i, { id }] of ids.entries()) {
    const answer =
      `Short version: start small and measure. For ${TOPICS[i % TOPICS.length]} I first write down what the team already knows, ` +
      'then agree on one number that tells us whether it works. '.repeat(1 + (i % 3)) +
      'After two weeks we look at it together and decide what to keep.';
    const res = await call(
      base,
      'PUT',
      `/api/questions/${id}/answer`,
      { answer, displayOnProfile: true, tags: [TOPICS[i % TOPICS.length]!] },
      token,
    );
    if (res.status !== 200) throw new Error(`answer failed: ${res.status}`);
  }
  const first = ids.at(-1)!;
  return {
    home: '/',
    profile: `/ask/${username}`,
    answer: `/ask/${username}/question/${first.id}/${questionSlug(first.question)}`,
    confirmation: `/q/${pending.statusToken}?confirmed=1`,
    status: `/q/${first.statusToken}`,
  };
}

async function audit(url: string): Promise<{ lhr: any; json: string; html: string }> {
  const chrome = await chromeLauncher.launch({
    chromePath: CHROME_PATH,
    chromeFlags: CHROME_FLAGS,
    logLevel: 'silent',
  });
  try {
    // The default config is the mobile preset (Moto G Power viewport, 4× CPU slowdown, slow 4G, simulated).
    const result = await lighthouse(url, {
      port: chrome.port,
      output: ['json', 'html'],
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
    });
    if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
    const [json, html] = result.report as string[];
    if (result.lhr.runtimeError)
      throw new Error(`${url}: ${result.lhr.runtimeError.code} ${result.lhr.runtimeError.message}`);
    return { lhr: result.lhr, json: json!, html: html! };
  } finally {
    chrome.kill();
  }
}

/**
 * Lighthouse sometimes fails to record a trace on a busy machine (NO_NAVSTART, NO_FCP): such a run says nothing
 * about the page, so it is repeated (twice at most) rather than counted.
 */
async function auditWithRetry(url: string): Promise<{ lhr: any; json: string; html: string }> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await audit(url);
    } catch (err) {
      if (attempt >= 3) throw err;
      console.warn(`      (run failed, repeating: ${(err as Error).message.split('\n')[0]})`);
    }
  }
}

const score = (lhr: any, category: string) => Math.round((lhr.categories[category]?.score ?? 0) * 100);
const numeric = (lhr: any, auditId: string) => Number(lhr.audits[auditId]?.numericValue ?? NaN);
const scriptBytes = (lhr: any) =>
  (
    (lhr.audits['network-requests']?.details?.items ?? []) as {
      resourceType?: string;
      transferSize?: number;
    }[]
  )
    .filter((item) => item.resourceType === 'Script')
    .reduce((sum, item) => sum + (item.transferSize ?? 0), 0);

/** The asker's own pages: `noindex` by design (issue 33), so Lighthouse's SEO category cannot and should not pass. */
const PRIVATE_PAGES = new Set(['confirmation', 'status']);

function figures(page: string, url: string, runs: any[]): PageFigures {
  const m = (f: (lhr: any) => number) => median(runs.map(f));
  const result = {
    page,
    url,
    performance: m((l) => score(l, 'performance')),
    accessibility: m((l) => score(l, 'accessibility')),
    bestPractices: m((l) => score(l, 'best-practices')),
    seo: m((l) => score(l, 'seo')),
    fcpMs: m((l) => numeric(l, 'first-contentful-paint')),
    lcpMs: m((l) => numeric(l, 'largest-contentful-paint')),
    tbtMs: m((l) => numeric(l, 'total-blocking-time')),
    cls: m((l) => numeric(l, 'cumulative-layout-shift')),
    scriptBytes: m(scriptBytes),
    runs: runs.map((l) => ({
      performance: score(l, 'performance'),
      lcpMs: Math.round(numeric(l, 'largest-contentful-paint')),
    })),
  };
  const b = LIGHTHOUSE_BARS;
  const misses = [
    result.performance < b.performance && 'performance',
    result.lcpMs > b.lcpMs && 'LCP',
    result.tbtMs > b.tbtMs && 'TBT',
    result.cls > b.cls && 'CLS',
    result.accessibility < b.accessibility && 'accessibility',
    result.bestPractices < b.bestPractices && 'best practices',
    result.seo < b.seo && !PRIVATE_PAGES.has(page) && 'SEO',
  ].filter((x): x is string => Boolean(x));
  return { ...result, ok: misses.length === 0, misses };
}

/** The audits that cost points, from the median run: what to fix next. */
function failingAudits(lhr: any): string[] {
  const out: string[] = [];
  for (const [id, category] of Object.entries<any>(lhr.categories)) {
    for (const ref of category.auditRefs as { id: string; weight: number }[]) {
      const a = lhr.audits[ref.id];
      if (
        ref.weight > 0 &&
        a &&
        a.score !== null &&
        a.score < 1 &&
        a.scoreDisplayMode !== 'informative' &&
        a.scoreDisplayMode !== 'notApplicable'
      )
        out.push(`${id}/${ref.id} (${a.displayValue ?? Math.round(a.score * 100)})`);
    }
  }
  return out;
}

export function printFigures(f: PageFigures): void {
  const b = LIGHTHOUSE_BARS;
  const mark = (ok: boolean) => (ok ? 'PASS' : 'MISS');
  console.log(`${mark(f.ok)}  Lighthouse mobile, ${f.page} (${f.url}), median of ${f.runs.length}`);
  console.log(
    `      ${mark(f.performance >= b.performance)} performance ${f.performance} (bar ≥ ${b.performance}; runs ${f.runs.map((r) => r.performance).join('/')})`,
  );
  console.log(
    `      ${mark(f.lcpMs <= b.lcpMs)} LCP ${(f.lcpMs / 1000).toFixed(2)} s (bar ≤ ${b.lcpMs / 1000} s)   FCP ${(f.fcpMs / 1000).toFixed(2)} s`,
  );
  console.log(
    `      ${mark(f.tbtMs <= b.tbtMs)} TBT ${Math.round(f.tbtMs)} ms (bar ≤ ${b.tbtMs} ms)   ${mark(f.cls <= b.cls)} CLS ${f.cls.toFixed(3)} (bar ≤ ${b.cls})`,
  );
  console.log(
    `      ${mark(f.accessibility >= b.accessibility)} accessibility ${f.accessibility}   ${mark(f.bestPractices >= b.bestPractices)} best practices ${f.bestPractices}   ${PRIVATE_PAGES.has(f.page) ? `SEO ${f.seo} (noindex on purpose: no bar)` : `${mark(f.seo >= b.seo)} SEO ${f.seo}`} (bars 100)`,
  );
  console.log(`      scripts transferred ${(f.scriptBytes / 1000).toFixed(1)} kB`);
}

/** Seeds the embedded product, audits home, profile and answer page, prints PASS/MISS and writes the reports. */
export async function runLighthouse(): Promise<PageFigures[]> {
  const product = await startProduct();
  try {
    const pages = await seed(product.url);
    mkdirSync(LIGHTHOUSE_DIR, { recursive: true });
    const results: PageFigures[] = [];
    for (const [page, path] of Object.entries(pages)) {
      const url = `${product.url}${path}`;
      const runs: any[] = [];
      for (let i = 1; i <= RUNS; i += 1) {
        const { lhr, json, html } = await auditWithRetry(url);
        writeFileSync(join(LIGHTHOUSE_DIR, `${page}-run${i}.report.json`), json);
        writeFileSync(join(LIGHTHOUSE_DIR, `${page}-run${i}.report.html`), html);
        runs.push(lhr);
      }
      const f = figures(page, url, runs);
      printFigures(f);
      const missing = failingAudits(runs[0]);
      if (missing.length) console.log(`      losing points (run 1): ${missing.join(', ')}`);
      console.log('');
      results.push(f);
    }
    writeFileSync(
      join(LIGHTHOUSE_DIR, 'summary.json'),
      JSON.stringify(
        { at: new Date().toISOString(), runs: RUNS, bars: LIGHTHOUSE_BARS, pages: results },
        null,
        2,
      ),
    );
    return results;
  } finally {
    product.stop();
  }
}
