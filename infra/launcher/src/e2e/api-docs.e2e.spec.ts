// Functions passed to page.evaluate run in the browser.
/// <reference lib="dom" />
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmbeddedProduct } from '../embedded.js';
import { browserGate, newContext, screenshot, releaseShared, useShared, watchErrors } from './harness.js';

/*
 * Issue 11, "Done when": the /api docs page renders in a real browser, served by the BFF with its own files under
 * the BFF's strict CSP (no CDN, nothing blocked), and shows the calls of /api/openapi.json.
 */

const run = browserGate();

describe.skipIf(!run)('the /api docs page in Chromium, on the embedded default', () => {
  let product: EmbeddedProduct;
  let browser: Browser;
  beforeAll(async () => {
    ({ product, browser } = await useShared());
  });
  afterAll(async () => {
    await releaseShared(browser);
  });

  it('renders Swagger UI with every documented call, nothing blocked by the CSP, nothing fetched from elsewhere', async () => {
    const context = await newContext(browser, 'desktop', product.url);
    const page = await context.newPage();
    const errors = watchErrors(page);
    const blocked: string[] = [];
    const foreign: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text())) blocked.push(message.text());
    });
    page.on('request', (request) => {
      if (!request.url().startsWith(product.url) && !request.url().startsWith('data:')) foreign.push(request.url());
    });
    const response = await page.goto('/api/docs');
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
    await page.locator('.swagger-ui .info .title').filter({ hasText: 'Ques API' }).waitFor({ timeout: 30_000 });
    await page.locator('.opblock').first().waitFor();

    const document = (await (await fetch(`${product.url}/api/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
    const operations = Object.values(document.paths).reduce((n, methods) => n + Object.keys(methods).length, 0);
    expect(await page.locator('.opblock').count()).toBe(operations);
    await expect(page.locator('.opblock-summary-path', { hasText: '/api/questions/{id}/answer' }).count()).resolves.toBeGreaterThan(0);

    // One call opened: its parameters and responses with the error messages.
    await page.locator('#operations-questions-askQuestion .opblock-summary').click();
    await page.locator('#operations-questions-askQuestion .responses-table').waitFor();
    expect(await page.locator('#operations-questions-askQuestion').innerText()).toContain('Question title is required');
    await screenshot(page, 'api-docs', 'desktop', { fullPage: false });

    expect(blocked).toEqual([]);
    expect(foreign).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
