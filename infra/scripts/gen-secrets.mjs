#!/usr/bin/env node
// Prints the secrets the distributed topology needs, as .env lines: JWT keys (Ed25519, PEM with \n escapes) and
// the support captcha's HMAC key and the internal calls' shared token. `node infra/scripts/gen-secrets.mjs > .env`
import { generateKeyPairSync, randomBytes } from 'node:crypto';

const { privateKey, publicKey } = generateKeyPairSync('ed25519', {
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  publicKeyEncoding: { type: 'spki', format: 'pem' },
});
const oneLine = (pem) => pem.trim().replace(/\n/g, '\\n');
console.log(`JWT_PRIVATE_KEY="${oneLine(privateKey)}"`);
console.log(`JWT_PUBLIC_KEY="${oneLine(publicKey)}"`);
console.log(`CAPTCHA_HMAC_KEY=${randomBytes(32).toString('hex')}`);
console.log(`INTERNAL_API_TOKEN=${randomBytes(24).toString('hex')}`);
