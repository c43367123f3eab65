#!/usr/bin/env node
// Prints JWT_PRIVATE_KEY / JWT_PUBLIC_KEY lines (Ed25519, PEM with \n escapes) for a .env file.
import { generateKeyPairSync } from 'node:crypto';

const { privateKey, publicKey } = generateKeyPairSync('ed25519', {
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  publicKeyEncoding: { type: 'spki', format: 'pem' },
});
const oneLine = (pem) => pem.trim().replace(/\n/g, '\\n');
console.log(`JWT_PRIVATE_KEY="${oneLine(privateKey)}"`);
console.log(`JWT_PUBLIC_KEY="${oneLine(publicKey)}"`);
