import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createHttpApp } from './http-app.js';

const log = pino({ level: 'silent' });

/** Errors as `pg`, `pg-pool` and Kysely raise them when the database connection is lost or refused. */
const connectionLosses: Record<string, () => Error> = {
  'terminated backend (57P01)': () => Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
  'crash shutdown (57P02)': () => Object.assign(new Error('terminating connection due to crash of another server process'), { code: '57P02' }),
  'starting up (57P03)': () => Object.assign(new Error('the database system is starting up'), { code: '57P03' }),
  'connection exception (08000)': () => Object.assign(new Error('connection exception'), { code: '08000' }),
  'connection does not exist (08003)': () => Object.assign(new Error('connection does not exist'), { code: '08003' }),
  'connection failure (08006)': () => Object.assign(new Error('connection failure'), { code: '08006' }),
  'socket reset': () => Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }),
  'server down': () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
  'socket ended': () => new Error('Connection terminated unexpectedly'),
  'rollback on a broken client': () => new Error('Client has encountered a connection error and is not queryable'),
  'wrapped in a cause': () => new Error('could not append', { cause: Object.assign(new Error('terminating connection'), { code: '57P01' }) }),
};

describe('the HTTP error handler', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = createHttpApp({ name: 'test', log });
    app.get('/loss/:kind', async (request) => {
      throw connectionLosses[(request.params as { kind: string }).kind]!();
    });
    app.get('/bug', async () => {
      throw new TypeError('undefined is not a function');
    });
    app.get('/other-sql-error', async () => {
      throw Object.assign(new Error('relation "nope" does not exist'), { code: '42P01' });
    });
    await app.ready();
  });
  afterAll(async () => app.close());

  it.each(Object.keys(connectionLosses))('answers a lost database connection (%s) with 503 UNAVAILABLE and Retry-After', async (kind) => {
    const res = await app.inject({ method: 'GET', url: `/loss/${encodeURIComponent(kind)}` });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ message: 'Ques is having trouble right now. Please try again in a moment.', code: 'UNAVAILABLE' });
    expect(res.headers['retry-after']).toBe('1');
  });

  it('still answers a programming error or another SQL error with 500 INTERNAL, without details', async () => {
    for (const url of ['/bug', '/other-sql-error']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({ message: 'Something went wrong on our side. Please try again.', code: 'INTERNAL' });
    }
  });
});
