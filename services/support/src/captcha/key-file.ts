import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Embedded mode: a captcha HMAC key generated once and kept under the data directory (mode 0600), so challenges
 * handed out before a restart still verify after it. In memory (throwaway) when `dir` is null.
 */
export function loadOrCreateCaptchaKey(dir: string | null): string {
  if (!dir) return randomBytes(32).toString('hex');
  const path = join(dir, 'captcha-hmac.key');
  if (existsSync(path)) {
    const key = readFileSync(path, 'utf8').trim();
    if (key.length >= 32) return key;
  }
  mkdirSync(dir, { recursive: true });
  const key = randomBytes(32).toString('hex');
  writeFileSync(path, key, { mode: 0o600 });
  return key;
}
