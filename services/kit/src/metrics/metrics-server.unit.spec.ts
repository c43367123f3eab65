import { networkInterfaces } from 'node:os';
import { describe, expect, it } from 'vitest';
import { createMetrics, METRICS_TOKEN_REQUIRED, serveMetrics } from './metrics.js';

/** An address of this machine that is not loopback (none on an isolated box: that case is skipped below). */
const outward = Object.values(networkInterfaces())
  .flat()
  .find((i) => i && i.family === 'IPv4' && !i.internal)?.address;

describe('the metrics port (issue 33 finding 6): loopback by default, a token anywhere else', () => {
  it('binds loopback unless told otherwise: another interface of the machine gets no answer', async () => {
    const served = await serveMetrics(createMetrics('probe'), { port: 0 });
    try {
      expect(new URL(served.url).hostname).toBe('127.0.0.1');
      expect((await fetch(served.url)).status).toBe(200);
      if (outward) {
        const elsewhere = new URL(served.url);
        elsewhere.hostname = outward;
        await expect(fetch(elsewhere, { signal: AbortSignal.timeout(2000) })).rejects.toThrow();
      }
    } finally {
      await served.close();
    }
  });

  it('refuses to serve every interface (or any non-loopback address) without a token; with one, scrapes need it', async () => {
    await expect(serveMetrics(createMetrics('probe'), { port: 0, host: '0.0.0.0' })).rejects.toThrow(METRICS_TOKEN_REQUIRED('0.0.0.0'));
    const served = await serveMetrics(createMetrics('probe'), { port: 0, host: '0.0.0.0', token: 'a-scrape-token-of-16+' });
    try {
      expect((await fetch(served.url)).status).toBe(401);
      expect((await fetch(served.url, { headers: { authorization: 'Bearer a-scrape-token-of-16+' } })).status).toBe(200);
    } finally {
      await served.close();
    }
  });
});
