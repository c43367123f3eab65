/**
 * Proof-of-work captcha solver for the support form: ALTCHA v2 challenges (`GET /api/support/captcha`, signed by the
 * support service with altcha-lib 2) solved in the browser by altcha-lib itself — the same library the service
 * creates and verifies them with, so the two sides cannot drift (ADR 0062 withdrew the hand copy that mirrored it).
 * Only its solver and its WebCrypto key derivation are imported: the rest (challenge creation, verification, the
 * server frameworks) is shaken out of the support chunk.
 *
 * It runs on the main thread: WebCrypto's deriveBits is asynchronous and runs off the main thread, so several
 * interleaved solvers (altcha-lib's `counterStart`/`counterStep`) are kept in flight at once and the page stays
 * responsive. (The CSP forbids blob: workers, and altcha-lib's worker solver would only add a chunk for no gain.)
 */

import { solveChallenge as solveWith } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/web/pbkdf2';
import type { CaptchaChallenge } from '@ques/contracts/core';

/** What `GET /api/support/captcha` returns; sent back untouched (the signature covers every parameter). */
export type { CaptchaChallenge };

export interface CaptchaSolution {
  counter: number;
  derivedKey: string;
  /** Milliseconds spent solving (informational, as altcha-lib reports it). */
  time?: number;
}

export interface SolveOptions {
  signal?: AbortSignal;
  /** Give up after this long (null result). Default 90 s, as altcha-lib. */
  timeoutMs?: number;
  /** Solvers kept in flight at once, each trying every n-th counter. */
  concurrency?: number;
}

/**
 * Searches counters until the derived key carries the challenge's prefix. Resolves to the solution, or null when
 * aborted or timed out. Rejects for a challenge it cannot solve (an algorithm other than PBKDF2/SHA-*, bad hex).
 */
export async function solveChallenge(challenge: CaptchaChallenge, options: SolveOptions = {}): Promise<CaptchaSolution | null> {
  const { timeoutMs = 90_000, signal } = options;
  const hardware = typeof navigator !== 'undefined' ? navigator.hardwareConcurrency || 4 : 4;
  const solvers = Math.max(1, Math.min(16, options.concurrency ?? hardware));
  // One controller for every solver: the caller's abort, or the first solution, stops them all.
  const controller = new AbortController();
  const stop = () => controller.abort();
  if (signal?.aborted) return null;
  signal?.addEventListener('abort', stop, { once: true });
  try {
    const found = await Promise.all(
      Array.from({ length: solvers }, (_, i) =>
        solveWith({ challenge, controller, counterStart: i, counterStep: solvers, deriveKey, timeout: timeoutMs }).then(
          (solution) => {
            if (solution) stop();
            return solution;
          },
          (error: unknown) => {
            stop();
            throw error;
          },
        ),
      ),
    );
    // The challenge's prefix is as long as half the key, so only its one counter matches; lowest first regardless.
    return found.filter((s) => s !== null).sort((a, b) => a.counter - b.counter)[0] ?? null;
  } finally {
    signal?.removeEventListener('abort', stop);
  }
}

/** UTF-8 safe base64 (identical to `btoa` for the ASCII JSON a challenge and solution make). */
function toBase64(text: string): string {
  let binary = '';
  for (const b of new TextEncoder().encode(text)) binary += String.fromCharCode(b);
  return btoa(binary);
}

/** The `captchaToken` of `POST /api/support/send`: base64 of `{ challenge, solution }`. */
export function encodeCaptchaToken(challenge: CaptchaChallenge, solution: CaptchaSolution): string {
  return toBase64(JSON.stringify({ challenge, solution }));
}
