import { describe, expect, it } from 'vitest';
import { waitUntilReachable } from './startup.js';
import { capturingLog } from '../testing/logs.js';

describe('waiting for infrastructure at start', () => {
  it('retries with growing waits, logging why, until the connection succeeds', async () => {
    const { log, lines } = capturingLog();
    let calls = 0;
    const connected = await waitUntilReachable(
      'Postgres',
      async () => {
        calls += 1;
        if (calls < 4)
          throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5999'), { code: 'ECONNREFUSED' });
        return 'connection';
      },
      log,
      { initialDelayMs: 5, maxDelayMs: 12 },
    );
    expect(connected).toBe('connection');
    const waits = lines.filter((l) => l.msg === 'waiting for Postgres');
    expect(waits.map((l) => l.retryInMs)).toEqual([5, 10, 12]);
    expect(waits[0]!.reason).toBe('ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:5999');
    expect(lines.at(-1)).toMatchObject({ msg: 'Postgres is reachable', attempts: 4 });
  });

  it('gives up after the timeout with the last reason', async () => {
    const { log } = capturingLog();
    await expect(
      waitUntilReachable('NATS', async () => Promise.reject(new Error('CONNECTION_REFUSED')), log, {
        timeoutMs: 40,
        initialDelayMs: 10,
      }),
    ).rejects.toThrow(/NATS was not reachable within 0 s \(\d+ attempts\): CONNECTION_REFUSED/);
  });
});
