/** Test fixture (never imported by the app): a real ALTCHA v2 challenge and how the server checks its solution. */
import type { CaptchaChallenge } from './captcha';

const hexToBytes = (hex: string) => new Uint8Array((hex.match(/../g) ?? []).map((byte) => parseInt(byte, 16)));
const bytesToHex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

/**
 * A real challenge from altcha-lib 2.8 `createChallenge` (what the support service issues): PBKDF2/SHA-256, cost
 * 1000, deterministic counter 37, signed with the secrets below (test values, not the service's).
 */
export const ALTCHA_FIXTURE: CaptchaChallenge = {
  parameters: {
    algorithm: 'PBKDF2/SHA-256',
    cost: 1000,
    expiresAt: 4102444800,
    keyLength: 32,
    keyPrefix: '09220ebf6228f88fabdf8d11adc4c6a9',
    keySignature: 'd76ce9e157a20b6507264fa74cf8c52d29c357a397720d62bbc04537eba34676',
    nonce: '64fa759ec4b24552ef5674066ded2c95',
    salt: '97bdfaec6613e71a69ca690745be4def',
  },
  signature: '02b26d1d9ba77e6701ed66757cce48cefc6dd2a6395417eec96757f4454a05b0',
};
export const FIXTURE_COUNTER = 37;
export const FIXTURE_KEY = '09220ebf6228f88fabdf8d11adc4c6a9a63296b764f5b85f49967b4891f5d3d4';
const KEY_SIGNATURE_SECRET = 'test-key-signature-secret-0123456789abcdef';

/** The server's fast check (altcha-lib verifySolution, key-signature path): HMAC-SHA-256 of the derived key bytes. */
export async function keySignatureOf(derivedKeyHex: string, secret = KEY_SIGNATURE_SECRET): Promise<string> {
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return bytesToHex(new Uint8Array(await crypto.subtle.sign('HMAC', key, hexToBytes(derivedKeyHex))));
}

