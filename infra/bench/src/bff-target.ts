/**
 * The BFF in its own process, as deployed (`src/targets.ts` starts it): in front of identity (in the targets process)
 * and a questions service in a process of its own (`src/questions-target.ts`, or the cached instance in the targets
 * process for the cached row), so each hop is a real exchange between processes (ADR 0038, 0047).
 */
import { fileURLToPath } from 'node:url';
import { buildBff } from '@ques/bff';
import { createLogger, InProcessEventBus } from '@ques/kit';
import { serve, serverConfig } from './server-process.js';

const { identityUrl, questionsUrl, jwt } = serverConfig<{
  identityUrl: string;
  questionsUrl: string;
  jwt: { publicKey: string; issuer: string; audience: string };
}>();
const log = createLogger('bench-bff', 'silent');
const webDist = fileURLToPath(new URL('../../../web/dist', import.meta.url));
const upstreams = { identity: identityUrl, questions: questionsUrl };

const bff = await buildBff({
  log,
  upstreams,
  jwt,
  publicOrigin: 'http://localhost:3000',
  webDist,
  // As in production, the services' changes reach the BFF, so a page past its time to live is served while it
  // re-renders (docs/adr/0024). Nothing is written during the benchmark, so a bus of its own carries the same news
  // (none) as the services' would.
  events: new InProcessEventBus({ log }),
});
const bffUrl = await bff.listen({ port: 0, host: '127.0.0.1' });
// The same BFF rendering every public page afresh (no page cache): the uncached server render's latency.
const uncached = await buildBff({ log, upstreams, jwt, publicOrigin: 'http://localhost:3000', webDist, pageCacheTtlMs: 0 });
const uncachedBffUrl = await uncached.listen({ port: 0, host: '127.0.0.1' });

serve({ bffUrl, uncachedBffUrl }, async () => {
  await bff.close();
  await uncached.close();
});
