import { describe, expect, it } from 'vitest';
import { encodeCaptchaToken, solveChallenge } from './captcha';
import { ALTCHA_FIXTURE, FIXTURE_COUNTER, FIXTURE_KEY, keySignatureOf } from './captcha.fixture';

describe('ALTCHA v2 solver (altcha-lib in the browser)', () => {
  it('solves a challenge issued by altcha-lib, with the key the server signed', async () => {
    const solution = await solveChallenge(ALTCHA_FIXTURE, { concurrency: 4 });
    expect(solution).toMatchObject({ counter: FIXTURE_COUNTER, derivedKey: FIXTURE_KEY });
    await expect(keySignatureOf(solution!.derivedKey)).resolves.toBe(ALTCHA_FIXTURE.parameters.keySignature);
  });

  it('finds the counter whatever the number of solvers in flight', async () => {
    const one = await solveChallenge(ALTCHA_FIXTURE, { concurrency: 1 });
    const many = await solveChallenge(ALTCHA_FIXTURE, { concurrency: 16 });
    expect(one?.counter).toBe(FIXTURE_COUNTER);
    expect(many?.counter).toBe(FIXTURE_COUNTER);
  });

  it('matches an odd-length prefix as hex', async () => {
    const challenge = { ...ALTCHA_FIXTURE, parameters: { ...ALTCHA_FIXTURE.parameters, keyPrefix: FIXTURE_KEY.slice(0, 7).toUpperCase() } };
    await expect(solveChallenge(challenge)).resolves.toMatchObject({ counter: FIXTURE_COUNTER, derivedKey: FIXTURE_KEY });
  });

  it('stops when aborted and refuses algorithms it does not know', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(solveChallenge(ALTCHA_FIXTURE, { signal: controller.signal })).resolves.toBeNull();
    await expect(
      solveChallenge({ ...ALTCHA_FIXTURE, parameters: { ...ALTCHA_FIXTURE.parameters, algorithm: 'ARGON2ID' } }),
    ).rejects.toThrow('Unsupported algorithm');
  });

  it('encodes the token as base64 JSON { challenge, solution }', () => {
    const solution = { counter: FIXTURE_COUNTER, derivedKey: FIXTURE_KEY, time: 12.5 };
    const token = encodeCaptchaToken(ALTCHA_FIXTURE, solution);
    expect(token).toBe(btoa(JSON.stringify({ challenge: ALTCHA_FIXTURE, solution })));
    expect(JSON.parse(atob(token))).toEqual({ challenge: ALTCHA_FIXTURE, solution });
  });
});
