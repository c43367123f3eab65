/**
 * The static-serving comparison's servers, in a child process of their own (the load generator runs in the parent):
 * the BFF serving the built web app, and a bare `@fastify/static` on the same folder (with `preCompressed`, so it
 * sends the build's .br/.gz copies exactly as a well-configured static server would). No database needed: the pages
 * loaded here never reach a service. Prints one JSON line with the URLs and the entry chunk's path, then serves until
 * killed.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Fastify from 'fastify';
import fastifyStatic from '@fastify/static';
import { buildBff } from '@ques/bff';
import { createLogger, generateJwtKeys } from '@ques/kit';

const webDist = fileURLToPath(new URL('../../../web/dist', import.meta.url));
const log = createLogger('bench', 'silent');

const bare = Fastify();
await bare.register(fastifyStatic, { root: webDist, preCompressed: true });
const bareStatic = await bare.listen({ port: 0, host: '127.0.0.1' });

// Port 9 (discard): nothing listens there, and no page loaded here calls a service.
const bff = await buildBff({
  log,
  upstreams: { identity: 'http://127.0.0.1:9' },
  jwt: { publicKey: generateJwtKeys().publicKey, issuer: 'ques-identity', audience: 'ques' },
  publicOrigin: 'http://localhost:3000',
  webDist,
});
const bffUrl = await bff.listen({ port: 0, host: '127.0.0.1' });

const entry = /<script type="module"[^>]* src="([^"]+)"/.exec(
  readFileSync(`${webDist}/index.html`, 'utf8'),
)?.[1];
if (!entry) throw new Error('web/dist/index.html has no module script: build the web app first');

process.stdout.write(`${JSON.stringify({ bareStatic, bffUrl, entry })}\n`);

const shutdown = async () => {
  await bff.close();
  await bare.close();
  process.exit(0);
};
process.on('SIGTERM', () => void shutdown());
process.on('SIGINT', () => void shutdown());
