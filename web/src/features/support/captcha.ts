/**
 * Proof-of-work captcha solver for the support form: ALTCHA v2 challenges (`GET /api/support/captcha`, signed by the
 * support service with altcha-lib 2) solved in the browser with WebCrypto.
 *
 * It mirrors altcha-lib v2 exactly (`solveChallenge` in pow.js, `deriveKey` in algorithms/web/pbkdf2.js):
 * - password = nonce bytes followed by the counter as a big-endian uint32 ("uint32" counter mode, the v2 default);
 * - key = PBKDF2(password, salt bytes, `cost` iterations, SHA-256/384/512 from the algorithm name, `keyLength` bytes);
 * - solved when the key starts with `keyPrefix` (compared as bytes for an even-length prefix, as lowercase hex
 *   otherwise); the solution is `{ counter, derivedKey: <lowercase hex>, time }`.
 *
 * It runs on the main thread: WebCrypto's deriveBits is asynchronous and runs off the main thread, so several
 * attempts are kept in flight at once and the page stays responsive. (The CSP forbids blob: workers, and a module
 * worker would only add a chunk for no gain.)
 */

import type { CaptchaChallenge } from '@ques/contracts/core';

/** What `GET /api/support/captcha` returns; sent back untouched (the signature covers every parameter). */
export type { CaptchaChallenge };
export type CaptchaParameters = CaptchaChallenge['parameters'];

export interface CaptchaSolution {
  counter: number;
  derivedKey: string;
  /** Milliseconds spent solving (informational, as altcha-lib reports it). */
  time: number;
}

const HASHES: Record<string, string> = {
  'PBKDF2/SHA-256': 'SHA-256',
  'PBKDF2/SHA-384': 'SHA-384',
  'PBKDF2/SHA-512': 'SHA-512',
};

const MAX_UINT32 = 0xffffffff;

export function hexToBytes(hex: string): Uint8Array<ArrayBuffer> {
  if (hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex)) throw new Error('Invalid hex in captcha challenge');
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

export function bytesToHex(bytes: Uint8Array): string {
  let hex = '';
  for (const b of bytes) hex += b.toString(16).padStart(2, '0');
  return hex;
}

/** nonce ‖ uint32be(counter): altcha-lib's PasswordBuffer in 'uint32' mode. */
export function passwordFor(nonce: Uint8Array, counter: number): Uint8Array<ArrayBuffer> {
  const buffer = new Uint8Array(nonce.length + 4);
  buffer.set(nonce, 0);
  new DataView(buffer.buffer).setUint32(nonce.length, counter, false);
  return buffer;
}

/** altcha-lib's web `deriveKey` for PBKDF2/SHA-*. */
export async function deriveKey(
  parameters: Pick<CaptchaParameters, 'algorithm' | 'cost' | 'keyLength'>,
  salt: Uint8Array<ArrayBuffer>,
  password: Uint8Array<ArrayBuffer>,
): Promise<Uint8Array> {
  const hash = HASHES[parameters.algorithm];
  if (!hash) throw new Error(`Unsupported captcha algorithm: ${parameters.algorithm}`);
  const key = await crypto.subtle.importKey('raw', password, { name: 'PBKDF2' }, false, ['deriveBits']);
  const bits = await crypto.subtle.deriveBits(
    { name: 'PBKDF2', salt, iterations: parameters.cost, hash },
    key,
    (parameters.keyLength || 32) * 8,
  );
  return new Uint8Array(bits);
}

function startsWith(key: Uint8Array, prefix: Uint8Array): boolean {
  if (prefix.length > key.length) return false;
  for (let i = 0; i < prefix.length; i++) if (key[i] !== prefix[i]) return false;
  return true;
}

export interface SolveOptions {
  signal?: AbortSignal;
  /** Give up after this long (null result). Default 90 s, as altcha-lib. */
  timeoutMs?: number;
  /** Attempts kept in flight at once. */
  concurrency?: number;
}

/**
 * Searches counters from 0 upwards until the derived key carries the challenge's prefix. Resolves to the solution,
 * or null when aborted or timed out. Throws for a challenge it cannot solve (unknown algorithm, bad hex).
 */
export async function solveChallenge(challenge: CaptchaChallenge, options: SolveOptions = {}): Promise<CaptchaSolution | null> {
  const { parameters } = challenge;
  const { timeoutMs = 90_000, signal } = options;
  if (!HASHES[parameters.algorithm]) throw new Error(`Unsupported captcha algorithm: ${parameters.algorithm}`);
  const keyLength = parameters.keyLength || 32;
  const prefixHex = String(parameters.keyPrefix ?? '').toLowerCase();
  if (!/^[0-9a-f]+$/.test(prefixHex) || prefixHex.length > keyLength * 2) throw new Error('Invalid captcha key prefix');
  const prefixBytes = prefixHex.length % 2 === 0 ? hexToBytes(prefixHex) : null;
  const nonce = hexToBytes(parameters.nonce);
  const salt = hexToBytes(parameters.salt);
  const hardware = typeof navigator !== 'undefined' ? navigator.hardwareConcurrency || 4 : 4;
  const batch = Math.max(1, Math.min(16, options.concurrency ?? hardware));
  const start = performance.now();

  for (let base = 0; base <= MAX_UINT32; base += batch) {
    if (signal?.aborted || performance.now() - start > timeoutMs) return null;
    const counters: number[] = [];
    for (let c = base; c < base + batch && c <= MAX_UINT32; c++) counters.push(c);
    const keys = await Promise.all(counters.map((c) => deriveKey({ ...parameters, keyLength }, salt, passwordFor(nonce, c))));
    // The lowest matching counter wins, as a sequential search would find it.
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      const matches = prefixBytes ? startsWith(key, prefixBytes) : bytesToHex(key).startsWith(prefixHex);
      if (matches) {
        return { counter: counters[i]!, derivedKey: bytesToHex(key), time: Math.floor((performance.now() - start) * 10) / 10 };
      }
    }
  }
  return null;
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
