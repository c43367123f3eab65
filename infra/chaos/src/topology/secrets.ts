import { generateKeyPairSync, randomBytes } from 'node:crypto';

/** The secrets one topology's processes share, made fresh for each run. */
export interface TopologySecrets {
  jwtPrivateKey: string;
  jwtPublicKey: string;
  captchaHmacKey: string;
  internalApiToken: string;
  testModeWebhookSecret: string;
}

/** PEM with its line breaks written as `\n`, the way `infra/scripts/gen-secrets.mjs` puts keys in a .env file. */
const oneLine = (pem: string) => pem.trim().replace(/\n/g, '\\n');

export function generateSecrets(): TopologySecrets {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519', {
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  return {
    jwtPrivateKey: oneLine(privateKey),
    jwtPublicKey: oneLine(publicKey),
    captchaHmacKey: randomBytes(32).toString('hex'),
    internalApiToken: randomBytes(24).toString('hex'),
    testModeWebhookSecret: `whsec_${randomBytes(24).toString('hex')}`,
  };
}
