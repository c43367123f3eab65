import { generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface JwtKeyPair {
  privateKey: string;
  publicKey: string;
}

export function generateJwtKeys(): JwtKeyPair {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519', {
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  return { privateKey, publicKey };
}

/** Embedded mode: a key pair generated once and kept under the data directory (private key mode 0600). */
export function loadOrCreateJwtKeys(dir: string): JwtKeyPair {
  const privatePath = join(dir, 'jwt-private.pem');
  const publicPath = join(dir, 'jwt-public.pem');
  if (existsSync(privatePath) && existsSync(publicPath)) {
    return { privateKey: readFileSync(privatePath, 'utf8'), publicKey: readFileSync(publicPath, 'utf8') };
  }
  mkdirSync(dir, { recursive: true });
  const keys = generateJwtKeys();
  writeFileSync(privatePath, keys.privateKey, { mode: 0o600 });
  writeFileSync(publicPath, keys.publicKey);
  return keys;
}
