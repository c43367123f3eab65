// Functions passed to page.evaluate run in the browser.
/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
import { accessSync, constants, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { isCI } from '@ques/kit/testing';
import { call, TEST_PASSWORD } from '../test/identity-journey.js';
import { signupOperator } from '../test/operators.js';
import { startEmbedded, type EmbeddedProduct } from '../embedded.js';
import { markArchiveProfile as markArchive } from '@ques/identity';

/*
 * What the browser journeys need: the system's Chromium driven by playwright-core (never a downloaded browser),
 * the built web app served by the BFF of the embedded default, and a place for screenshots.
 */

const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
export const WEB_DIST = join(REPO_ROOT, 'web', 'dist');
export const SCREENSHOT_DIR = join(REPO_ROOT, 'test-artifacts', 'screenshots');

export const VIEWPORTS = {
  phone: { width: 390, height: 844 },
  desktop: { width: 1280, height: 800 },
} as const;
export type ViewportName = keyof typeof VIEWPORTS;

const CHROMIUM_ARGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

function executable(path: string | undefined): string | null {
  if (!path) return null;
  try {
    accessSync(path, constants.X_OK);
    return path;
  } catch {
    return null;
  }
}

/** CHROMIUM_PATH when set (and then only it), else Debian's /usr/bin/chromium; null when it is not there. */
export const chromiumPath = (): string | null => executable(process.env.CHROMIUM_PATH || '/usr/bin/chromium');

/**
 * Whether the browser suite runs: without Chromium it is skipped with a message, except under CI=true where a
 * missing browser fails the run (the policy of `infraGate` in @ques/kit/testing). A missing web build always
 * fails: it is a step forgotten, not infrastructure.
 */
export function browserGate(): boolean {
  if (!existsSync(join(WEB_DIST, 'index.html'))) {
    throw new Error(
      `The web app is not built (${WEB_DIST}/index.html is missing): run \`npx turbo run build\` first.`,
    );
  }
  if (chromiumPath()) return true;
  const message = `Chromium was not found at ${process.env.CHROMIUM_PATH || '/usr/bin/chromium'} (set CHROMIUM_PATH, or install Debian's chromium package): the browser end-to-end tests need it`;
  if (isCI()) throw new Error(message);
  console.warn(`[skipped] ${message}`);
  return false;
}

export async function launchChromium(): Promise<Browser> {
  const executablePath = chromiumPath();
  if (!executablePath) throw new Error('Chromium is not available');
  return chromium.launch({ executablePath, headless: true, args: CHROMIUM_ARGS, timeout: 30_000 });
}

/** A free loopback port, so the product's public origin (canonical URLs, profile links) is its real address. */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** A clock the journeys can move forward (the services read time from it). */
export function controllableClock() {
  let offsetMs = 0;
  return {
    now: () => new Date(Date.now() + offsetMs),
    advance(ms: number) {
      offsetMs += ms;
    },
  };
}

/** The embedded default (in-memory PGlite, throwaway keys) serving the built web app. */
export async function startProduct(clock?: () => Date): Promise<EmbeddedProduct> {
  const port = await freePort();
  return startEmbedded({
    port,
    publicOrigin: `http://127.0.0.1:${port}`,
    dataDir: null,
    logLevel: 'silent',
    authRateLimitPerMinute: 1000,
    webDist: WEB_DIST,
    clock,
  });
}

/*
 * One product and one browser for the whole e2e run (ADR 0044). vitest.e2e.config.ts runs every file in one worker
 * without isolation, so this module — and what it started — lives from the first file to the last: the product's
 * start (PGlite's cluster and four services' migrations) and Chromium's launch are paid once instead of per file.
 * A file is still on its own: its people are its own sign-ups (addresses tagged per file, names no other file
 * uses), each journey opens its own browser contexts, and `releaseShared` closes whatever contexts a file left
 * open. Files that need a product of their own (a clock they move, a test consumer, OPERATOR_EMAILS) start one
 * with `startProduct` / `startEmbedded` and stop it themselves; they still share the browser. The worker's end
 * (vitest stops it once the last file ran) ends both: the product keeps nothing on disk, and Playwright closes the
 * browser on the signal.
 */
let sharedProduct: Promise<EmbeddedProduct> | undefined;
let sharedBrowser: Promise<Browser> | undefined;

/** The run's Chromium, launched by the first file that asks. */
export function useSharedBrowser(): Promise<Browser> {
  sharedBrowser ??= launchChromium();
  return sharedBrowser;
}

/**
 * The run's embedded default (as `startProduct()` starts it) and its browser, started by the first file that asks.
 * One after the other: the product's start keeps the event loop busy, and Chromium's launch has a timeout.
 */
export async function useShared(): Promise<{ product: EmbeddedProduct; browser: Browser }> {
  sharedProduct ??= startProduct();
  const product = await sharedProduct;
  return { product, browser: await useSharedBrowser() };
}

/** A file's `afterAll`: closes the browser contexts it left open (the product and the browser stay for the next). */
export async function releaseShared(browser: Browser | undefined): Promise<void> {
  await Promise.all((browser?.contexts() ?? []).map((context) => context.close()));
}

/** A fresh browser profile (no storage) at a viewport, reduced motion on so screenshots never catch a transition. */
export async function newContext(
  browser: Browser,
  viewport: ViewportName,
  baseURL: string,
  timezoneId = 'UTC',
): Promise<BrowserContext> {
  const context = await browser.newContext({
    baseURL,
    viewport: VIEWPORTS[viewport],
    deviceScaleFactor: 1,
    reducedMotion: 'reduce',
    locale: 'en-US',
    timezoneId,
    hasTouch: viewport === 'phone',
    isMobile: false,
  });
  context.setDefaultTimeout(10_000);
  context.setDefaultNavigationTimeout(15_000);
  return context;
}

/**
 * Logs `email` in through the login form (the test password) in a fresh desktop context; the page ends where login
 * sends the account (the set-up page for a new owner).
 * `errors` are the page's console errors, `scripts` the script URLs it loaded.
 */
export async function logInInBrowser(browser: Browser, base: string, email: string, path = '/login') {
  const context = await newContext(browser, 'desktop', base);
  const page = await context.newPage();
  const errors = watchErrors(page);
  const scripts: string[] = [];
  page.on('request', (r) => r.resourceType() === 'script' && scripts.push(r.url()));
  await page.goto(path);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(TEST_PASSWORD);
  await page.getByRole('button', { name: 'Log In' }).click();
  // Issue 28: a new owner lands on the set-up page (else their questions, or the ?next= page).
  await page.waitForURL((url) => url.pathname !== '/login');
  return { context, page, errors, scripts };
}

/**
 * A new account made a platform operator with the CLI's code path (`grant-operator`), then logged in in a browser
 * (`logInInBrowser`): the console's journeys start here.
 */
export async function signInAsOperator(
  browser: Browser,
  product: EmbeddedProduct,
  name: string,
  email: string,
) {
  await signupOperator(product, name, email);
  return logInInBrowser(browser, product.url, email);
}

/** A signed-in person's session as the web app keeps it in local storage (spec §3 keys). */
export interface BrowserSession {
  accessToken: string;
  refreshToken: string;
  user: { username: string } & Record<string, unknown>;
}

/**
 * Signs the context in the way the web app would after a login, before any of its pages runs: the tokens and the
 * user in local storage. Only the first page load seeds them; after that the app owns them (refresh, logout).
 */
export async function seedSession(context: BrowserContext, session: BrowserSession): Promise<void> {
  await context.addInitScript((s: BrowserSession) => {
    try {
      if (localStorage.getItem('e2e-seeded')) return;
      localStorage.setItem('e2e-seeded', '1');
      localStorage.setItem('accessToken', s.accessToken);
      localStorage.setItem('refreshToken', s.refreshToken);
      localStorage.setItem('userData', JSON.stringify(s.user));
      localStorage.setItem('username', s.user.username);
    } catch {
      // about:blank and other origins have no storage for us.
    }
  }, session);
}

/** Identity's admin `mark-archive` (the function its CLI runs against Postgres), on the embedded product's store. */
export async function markArchiveProfile(product: EmbeddedProduct, username: string): Promise<string> {
  const identity = product.services.identity;
  return markArchive(identity.parts, username, true);
}

/** Collects uncaught page errors and failed console errors, so a journey can assert the page stayed healthy. */
export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(`pageerror: ${err.message}`));
  return errors;
}

/**
 * A full-page screenshot under test-artifacts/screenshots/{name}-{viewport}.png, once fonts and images settled.
 * `fullPage: false` captures the viewport only: for an open modal, which is fixed to the viewport (a full-page
 * capture would show the page below it uncovered).
 */
export async function screenshot(
  page: Page,
  name: string,
  viewport: ViewportName,
  { fullPage = true }: { fullPage?: boolean } = {},
): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const path = join(SCREENSHOT_DIR, `${name}-${VIEWPORTS[viewport].width}.png`);
  await page.evaluate(async () => {
    // The page as a visitor first sees it: no focus ring from the test's last click, scrolled to the top.
    (document.activeElement as HTMLElement | null)?.blur();
    window.scrollTo(0, 0);
    document.querySelector('.modal')?.scrollTo(0, 0);
    // A full-page capture shows what is below the fold too: load those images now.
    for (const img of document.images) img.loading = 'eager';
    const settled = (img: HTMLImageElement) =>
      new Promise((resolve) => {
        img.addEventListener('load', resolve, { once: true });
        img.addEventListener('error', resolve, { once: true });
      });
    const pending = [...document.images].filter((img) => !img.complete).map(settled);
    await Promise.race([
      Promise.all([document.fonts.ready, ...pending]),
      new Promise((r) => setTimeout(r, 5_000)),
    ]);
  });
  await page.screenshot({ path, fullPage, animations: 'disabled' });
  return path;
}

/** Fails when the page scrolls sideways: content wider than the viewport (the usual phone-layout defect). */
export async function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

/** Raw HTTP as a crawler that runs no JavaScript sees it. */
export async function fetchAsCrawler(
  url: string,
  userAgent = 'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
) {
  const res = await fetch(url, { headers: { 'user-agent': userAgent, accept: 'text/html' } });
  const bytes = Buffer.from(await res.arrayBuffer());
  return {
    status: res.status,
    html: bytes.toString('utf8'),
    first4k: bytes.subarray(0, 4096).toString('utf8'),
  };
}

/** `content` of a meta tag (or `href` of the canonical link) in an HTML string, entities decoded. */
export function headValue(
  html: string,
  selector: 'title' | 'canonical' | `meta[${'name' | 'property'}=${string}]`,
): string | undefined {
  const decode = (s: string) =>
    s
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&');
  let match: RegExpExecArray | null;
  if (selector === 'title') match = /<title>([^<]*)<\/title>/.exec(html);
  else if (selector === 'canonical') match = /<link rel="canonical" href="([^"]*)"/.exec(html);
  else {
    const [, attr, key] = /^meta\[(name|property)=(.+)\]$/.exec(selector)!;
    match = new RegExp(
      `<meta ${attr}="${key!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}" content="([^"]*)"`,
    ).exec(html);
  }
  return match ? decode(match[1]!) : undefined;
}

export function jsonLdOf(html: string): any {
  const match = /<script type="application\/ld\+json"[^>]*>([\s\S]*?)<\/script>/.exec(html);
  return match ? JSON.parse(match[1]!) : null;
}

/** The password every browser test signs up with. */
export const PASSWORD = 'a long enough password';

/** A person signed up through `/api/users`, with the session the browser keeps. */
export interface Person extends BrowserSession {
  id: string;
  username: string;
  name: string;
  email: string;
}

/** Signs `name` up on the product at `base` (expecting a 201) and returns them with their session. */
export async function signUp(base: string, name: string, email: string): Promise<Person> {
  const res = await call(base, 'POST', '/api/users', { name, email, password: PASSWORD });
  expect(res.status).toBe(201);
  const user = res.body.user;
  return {
    id: user.id,
    username: user.username,
    name,
    email,
    user,
    accessToken: res.body.token,
    refreshToken: res.body.refreshToken,
  };
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * axe-core's violations inside the `include` selectors, the site header left out (it is the shell's, checked with the
 * public pages). Evaluated, not added as a <script>: the page's CSP (script-src 'self') rightly refuses inline scripts.
 */
export async function axeViolations(page: Page, include: readonly string[] = ['main']): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const result = await page.evaluate(async (selectors) => {
    const axe = (window as unknown as { axe: { run: (ctx: unknown, opts: unknown) => Promise<{ violations: { id: string; nodes: { target: string[] }[] }[] }> } }).axe;
    // What a person reads is the settled screen: a menu still fading in (opacity) fails color-contrast mid-animation.
    const finite = document.getAnimations().filter((a) => a.effect?.getTiming().iterations !== Infinity);
    await Promise.all(finite.map((a) => a.finished.catch(() => undefined)));
    return axe.run({ include: selectors.map((s) => [s]), exclude: [['.site-header']] }, { resultTypes: ['violations'] });
  }, include);
  return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** "Tue 4 Dec, 14:32" in `timeZone`, with the year only when it is not this year: how the status pages show a time. */
export function dateTimeIn(iso: string, timeZone: string): string {
  const parts = (d: Date) =>
    Object.fromEntries(
      new Intl.DateTimeFormat('en-GB', { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone })
        .formatToParts(d)
        .map((p) => [p.type, p.value]),
    ) as Record<string, string>;
  const p = parts(new Date(iso));
  const year = p.year !== parts(new Date()).year ? ` ${p.year}` : '';
  return `${p.weekday} ${p.day} ${p.month}${year}, ${p.hour}:${p.minute}`;
}

/** `#7A2E8C` as getComputedStyle reports it: `rgb(122, 46, 140)`. */
export const rgb = (hex: string) => `rgb(${[1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)).join(', ')})`;
