import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { describe, expect, it } from 'vitest';
import { AppError } from '@ques/kit/errors';
import { CAPTCHA_MESSAGES, encodeCaptchaToken, ProofOfWorkCaptcha } from './captcha.js';

const KEY = 'k'.repeat(40);
let offsetMs = 0;
const clock = () => new Date(Date.now() + offsetMs);
const captcha = new ProofOfWorkCaptcha({ hmacKey: KEY, clock });

async function solved(source = captcha): Promise<{ challenge: Challenge; token: string }> {
  const challenge = await source.challenge();
  const solution = await solveChallenge({ challenge, deriveKey, timeout: 20_000 });
  if (!solution) throw new Error('could not solve the challenge');
  return { challenge, token: encodeCaptchaToken(challenge, solution) };
}

async function rejection(token: string | undefined): Promise<AppError> {
  try {
    await captcha.verify(token);
  } catch (e) {
    return e as AppError;
  }
  throw new Error('expected the captcha to be rejected');
}

describe('proof-of-work captcha', () => {
  it('issues a signed PBKDF2 challenge that expires in 10 minutes', async () => {
    const challenge = await captcha.challenge();
    expect(challenge.signature).toMatch(/^[0-9a-f]{64}$/);
    expect(challenge.parameters.algorithm).toBe('PBKDF2/SHA-256');
    const expiresIn = challenge.parameters.expiresAt! * 1000 - Date.now();
    expect(expiresIn).toBeGreaterThan(9 * 60 * 1000);
    expect(expiresIn).toBeLessThanOrEqual(10 * 60 * 1000);
  });

  it('takes a bounded search to solve (500–2,000 PBKDF2 attempts) and is accepted, naming the challenge for replay checks', async () => {
    const challenge = await captcha.challenge();
    const solution = (await solveChallenge({ challenge, deriveKey, timeout: 20_000 }))!;
    // The solver walks the counter up from 0, so the counter is the number of attempts it took.
    expect(solution.counter).toBeGreaterThanOrEqual(500);
    expect(solution.counter).toBeLessThanOrEqual(2_000);
    const token = encodeCaptchaToken(challenge, solution);
    const verified = await captcha.verify(token);
    expect(verified.replayKey).toMatch(/^[0-9a-f]{64}$/);
    expect(verified.expiresAt.getTime()).toBe(challenge.parameters.expiresAt! * 1000);
    // The same challenge always maps to the same key, whatever else the payload says.
    expect((await captcha.verify(token)).replayKey).toBe(verified.replayKey);
  });

  it('asks for the captcha when there is none (400)', async () => {
    for (const token of [undefined, '', '   ']) {
      const error = await rejection(token);
      expect(error.status).toBe(400);
      expect(error.message).toBe(CAPTCHA_MESSAGES.missing);
    }
  });

  it('rejects payloads that are not ALTCHA payloads (400)', async () => {
    for (const token of [
      'not base64 json',
      Buffer.from('{"challenge":1}').toString('base64'),
      Buffer.from('[]').toString('base64'),
    ]) {
      const error = await rejection(token);
      expect(error.status).toBe(400);
      expect(error.message).toBe(CAPTCHA_MESSAGES.malformed);
    }
  });

  it('rejects a challenge signed with another key (403)', async () => {
    const forger = new ProofOfWorkCaptcha({ hmacKey: 'f'.repeat(40), clock });
    const { token } = await solved(forger);
    const error = await rejection(token);
    expect(error.status).toBe(403);
    expect(error.message).toBe(CAPTCHA_MESSAGES.failed);
  });

  it('rejects tampered parameters and wrong answers (403)', async () => {
    const challenge = await captcha.challenge();
    const solution = (await solveChallenge({ challenge, deriveKey }))!;
    const easier = { ...challenge, parameters: { ...challenge.parameters, cost: 1 } };
    expect((await rejection(encodeCaptchaToken(easier, solution))).status).toBe(403);
    const later = {
      ...challenge,
      parameters: { ...challenge.parameters, expiresAt: challenge.parameters.expiresAt! + 3600 },
    };
    expect((await rejection(encodeCaptchaToken(later, solution))).status).toBe(403);
    const wrong = {
      ...solution,
      derivedKey: solution.derivedKey.replace(/^./, (c) => (c === '0' ? '1' : '0')),
    };
    expect((await rejection(encodeCaptchaToken(challenge, wrong))).message).toBe(CAPTCHA_MESSAGES.failed);
    const guessed = { counter: 0, derivedKey: '00'.repeat(32) };
    expect((await rejection(encodeCaptchaToken(challenge, guessed))).status).toBe(403);
  });

  it('rejects a solution submitted after the challenge expired (403)', async () => {
    const { token } = await solved();
    offsetMs = 10 * 60 * 1000 + 1_000;
    try {
      const error = await rejection(token);
      expect(error.status).toBe(403);
      expect(error.message).toBe(CAPTCHA_MESSAGES.expired);
    } finally {
      offsetMs = 0;
    }
  });

  it('refuses a short HMAC key', () => {
    expect(() => new ProofOfWorkCaptcha({ hmacKey: 'short' })).toThrow(/32 characters/);
  });
});
