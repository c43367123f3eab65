/**
 * Issue 15 bench targets (docs/adr/0029), in a child process of their own: the BFF with its share-image and feed
 * routes in front of a stand-in for identity and questions (a bare Fastify answering the three public calls those
 * routes read: the owner's profile, an answer by id — every id its own text, so every image is a fresh render — and
 * the owner's 200 public answers), and a bare `@fastify/static` serving the same PNG and feed bytes from a folder
 * (the same-run baselines). Prints one JSON line with the URLs, then serves until killed.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import fastifyStatic from '@fastify/static';
import { buildBff } from '@ques/bff';
import { answerImagePath, type PublicProfile, type PublicQuestion } from '@ques/contracts';
import { createLogger, generateJwtKeys } from '@ques/kit';

const log = createLogger('bench', 'silent');
const owner: PublicProfile = {
  _id: '11111111-1111-4111-8111-111111111111',
  id: '11111111-1111-4111-8111-111111111111',
  username: 'bench-owner',
  name: 'Bench Owner',
  bio: 'Answers questions about performance.',
  avatarUrl: '',
  brandColorMain: '#0f766e',
  brandColorLight: '#f0fdfa',
  archiveProfile: false,
};
const at = (i: number) => new Date(Date.UTC(2026, 10, 1) + i * 60_000).toISOString();
const question = (id: string, i: number): PublicQuestion => ({
  _id: id,
  id,
  question: `Benchmark question number ${i}: how long does a share image take to render on this machine?`,
  detail: '',
  answer: `Answer ${i}: `.padEnd(300, 'measured with autocannon, median of several runs, same-run baselines. '),
  source: '',
  tags: ['bench'],
  status: 'answered' as PublicQuestion['status'],
  isCurated: false,
  displayOnProfile: true,
  isPrivate: false,
  deletedByReceiver: false,
  toUsername: owner.username,
  recipientName: owner.name,
  replierName: owner.name,
  createdAt: at(i),
  updatedAt: at(i),
  answeredAt: at(i),
});
const idOf = (i: number) => `00000000-0000-4000-8000-${i.toString(16).padStart(12, '0')}`;
const answers = Array.from({ length: 200 }, (_, i) => question(idOf(i + 1), i + 1)).reverse();

const upstream = Fastify();
upstream.get('/api/users/public/:username', async (req, reply) =>
  (req.params as { username: string }).username === owner.username ? owner : reply.status(404).send({ message: 'User not found' }),
);
upstream.get('/api/questions/:id', async (req) => {
  const id = (req.params as { id: string }).id;
  return question(id, parseInt(id.slice(-12), 16));
});
upstream.get('/api/questions', async (req) => answers.slice(0, Number((req.query as { limit?: string }).limit ?? 24)));
const upstreamUrl = await upstream.listen({ port: 0, host: '127.0.0.1' });

const bff = await buildBff({
  log,
  upstreams: { identity: upstreamUrl, questions: upstreamUrl },
  jwt: { publicKey: generateJwtKeys().publicKey, issuer: 'ques-identity', audience: 'ques' },
  publicOrigin: 'http://localhost:3000',
});
const bffUrl = await bff.listen({ port: 0, host: '127.0.0.1' });

// The baselines: the very bytes the BFF serves, as static files.
const dir = mkdtempSync(join(tmpdir(), 'ques-reach-bench-'));
const cachedImage = answerImagePath(owner, question(idOf(1), 1));
const png = Buffer.from(await (await fetch(`${bffUrl}${cachedImage}`)).arrayBuffer());
const feedPath = `/ask/${owner.username}/feed.atom`;
const feed = Buffer.from(await (await fetch(`${bffUrl}${feedPath}`)).arrayBuffer());
writeFileSync(join(dir, 'image.png'), png);
writeFileSync(join(dir, 'feed.atom'), feed);
const bare = Fastify();
await bare.register(fastifyStatic, { root: dir });
const bareStatic = await bare.listen({ port: 0, host: '127.0.0.1' });

/** A fresh answer id's current image path (the hash the page would name), for the uncached renders. */
const uncached = Array.from({ length: 60 }, (_, i) => answerImagePath(owner, question(idOf(1000 + i), 1000 + i)));

process.stdout.write(
  `${JSON.stringify({ bffUrl, bareStatic, cachedImage, feedPath, uncached, pngBytes: png.length, feedBytes: feed.length })}\n`,
);

const shutdown = async () => {
  await bff.close();
  await bare.close();
  await upstream.close();
  process.exit(0);
};
process.on('SIGTERM', () => void shutdown());
process.on('SIGINT', () => void shutdown());
