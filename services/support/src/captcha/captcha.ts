import { createHash, createHmac } from 'node:crypto';
import { createChallenge, randomInt, verifySolution, type Challenge, type Solution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { z } from 'zod';
import { badRequest, forbidden, systemClock, type Clock } from '@ques/kit';

/**
 * Self-hosted proof-of-work captcha (ALTCHA v2, see docs/adr). A challenge is HMAC-signed and carries its own expiry,
 * so issuing one stores nothing; verifying checks the signature, the expiry and the solution. Making sure a solved
 * challenge is used only once is the caller's job (`replayKey` into a unique column, in the request's transaction).
 */

export const CAPTCHA_ALGORITHM = 'PBKDF2/SHA-256';

export const CAPTCHA_MESSAGES = {
  missing: 'Please complete the captcha.',
  malformed: 'The captcha answer is not valid. Please solve the captcha again.',
  failed: 'Captcha verification failed. Please solve the captcha again.',
  expired: 'The captcha has expired. Please solve it again.',
  replayed: 'This captcha has already been used. Please solve it again.',
} as const;

export interface CaptchaOptions {
  /** HMAC key for challenge signatures (`CAPTCHA_HMAC_KEY`). */
  hmacKey: string;
  clock?: Clock;
  /** How long a challenge may be solved and submitted. Default 10 minutes. */
  ttlMs?: number;
  /** PBKDF2 iterations per attempt. */
  cost?: number;
  /** The secret counter the solver must reach is drawn from [maxCounter / 4, maxCounter]. */
  maxCounter?: number;
}

export const CAPTCHA_DEFAULTS = {
  ttlMs: 10 * 60 * 1000,
  // ~1,250 PBKDF2(1,000) attempts on average: a few hundred ms in a browser or in Node, costly in bulk.
  cost: 1_000,
  maxCounter: 2_000,
} as const;

export interface VerifiedCaptcha {
  /** Identifies the solved challenge (a hash of its signature): one challenge is good for one request. */
  replayKey: string;
  /** Until when the challenge could be replayed at all; the replay record can go after this. */
  expiresAt: Date;
}

/** Shape check only: the verified object is the decoded JSON itself, since the signature covers every parameter. */
const ZPayload = z.object({
  challenge: z.object({
    parameters: z.looseObject({
      algorithm: z.literal(CAPTCHA_ALGORITHM),
      nonce: z.string().regex(/^[0-9a-f]{2,128}$/),
      salt: z.string().regex(/^[0-9a-f]{2,128}$/),
      cost: z.number().int().positive(),
      keyLength: z.number().int().positive().max(64),
      keyPrefix: z.string().max(128),
      keySignature: z.string().max(256).optional(),
      expiresAt: z.number().positive(),
    }),
    signature: z.string().min(1).max(256),
  }),
  solution: z.looseObject({ counter: z.number(), derivedKey: z.string().max(256) }),
});

export class ProofOfWorkCaptcha {
  private readonly clock: Clock;
  private readonly ttlMs: number;
  private readonly cost: number;
  private readonly maxCounter: number;
  private readonly keySignatureSecret: string;

  constructor(private readonly opts: CaptchaOptions) {
    if (opts.hmacKey.length < 32) throw new Error('CAPTCHA_HMAC_KEY must be at least 32 characters');
    this.clock = opts.clock ?? systemClock;
    this.ttlMs = opts.ttlMs ?? CAPTCHA_DEFAULTS.ttlMs;
    this.cost = opts.cost ?? CAPTCHA_DEFAULTS.cost;
    this.maxCounter = opts.maxCounter ?? CAPTCHA_DEFAULTS.maxCounter;
    // A second key, derived from the first, signs the expected key: verification is one HMAC, not a PBKDF2 run.
    this.keySignatureSecret = createHmac('sha256', opts.hmacKey)
      .update('ques-support-captcha-key-signature')
      .digest('hex');
  }

  /** A fresh signed challenge (deterministic mode: the server knows the answer, the client must search for it). */
  challenge(): Promise<Challenge> {
    const min = Math.max(1, Math.floor(this.maxCounter / 4));
    return createChallenge({
      algorithm: CAPTCHA_ALGORITHM,
      cost: this.cost,
      counter: randomInt(this.maxCounter, min),
      deriveKey,
      expiresAt: new Date(this.clock().getTime() + this.ttlMs),
      hmacSignatureSecret: this.opts.hmacKey,
      hmacKeySignatureSecret: this.keySignatureSecret,
    });
  }

  /** Checks a `captchaToken` (base64 JSON `{ challenge, solution }`); throws a 400/403 AppError when it isn't good. */
  async verify(token: string | null | undefined): Promise<VerifiedCaptcha> {
    if (!token?.trim()) throw badRequest(CAPTCHA_MESSAGES.missing);
    let decoded: unknown;
    try {
      decoded = JSON.parse(Buffer.from(token.trim(), 'base64').toString('utf8'));
    } catch {
      throw badRequest(CAPTCHA_MESSAGES.malformed);
    }
    const shape = ZPayload.safeParse(decoded);
    if (!shape.success) throw badRequest(CAPTCHA_MESSAGES.malformed);
    const payload = decoded as { challenge: Challenge; solution: Solution };
    const expiresAt = new Date(shape.data.challenge.parameters.expiresAt * 1000);
    // Our clock decides (altcha-lib compares with Date.now() too, which only matters if the clocks disagree).
    if (expiresAt.getTime() < this.clock().getTime()) throw forbidden(CAPTCHA_MESSAGES.expired);
    let result;
    try {
      result = await verifySolution({
        challenge: payload.challenge,
        solution: payload.solution,
        deriveKey,
        hmacSignatureSecret: this.opts.hmacKey,
        hmacKeySignatureSecret: this.keySignatureSecret,
      });
    } catch {
      // Malformed hex and the like inside a structurally valid payload.
      throw forbidden(CAPTCHA_MESSAGES.failed);
    }
    if (result.expired) throw forbidden(CAPTCHA_MESSAGES.expired);
    if (!result.verified) throw forbidden(CAPTCHA_MESSAGES.failed);
    return {
      replayKey: createHash('sha256').update(shape.data.challenge.signature).digest('hex'),
      expiresAt,
    };
  }
}

/** What a client sends as `captchaToken` (used by tests and documented for the web app). */
export function encodeCaptchaToken(challenge: Challenge, solution: Solution): string {
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}
