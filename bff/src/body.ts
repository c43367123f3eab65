import { Transform } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import sjson from 'secure-json-parse';
import { AppError, badRequest } from '@ques/kit/errors';

/** JSON bodies at the edge: at most this many bytes… */
export const JSON_BODY_LIMIT = 64 * 1024;
/** …and this many levels of nested arrays and objects. */
export const JSON_DEPTH_LIMIT = 32;

export const BODY_MESSAGES = {
  notJson: 'The request body is not valid JSON.',
  empty: 'The request body is empty. Send a JSON value, or no Content-Type header.',
  tooDeep: `The request body is nested too deeply (at most ${JSON_DEPTH_LIMIT} levels of arrays and objects).`,
  forbiddenKey: 'The request body contains a forbidden key ("__proto__" or "constructor.prototype").',
  tooLarge: `The request body is too large (at most ${JSON_BODY_LIMIT / 1024} KB).`,
  notMultipart: 'Send the file as multipart/form-data with a boundary.',
  truncatedMultipart: 'The upload was cut short (it ends before its closing boundary). Please send the file again.',
} as const;

declare module 'fastify' {
  interface FastifyRequest {
    /** The exact bytes of a JSON body, forwarded to the service as the client sent them. */
    rawJson?: Buffer;
  }
}

const OPEN_BRACKET = 0x5b;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACKET = 0x5d;
const CLOSE_BRACE = 0x7d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** The deepest nesting of arrays and objects in JSON text, stopping as soon as it passes `limit` (no recursion). */
export function jsonDepthExceeds(bytes: Buffer, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i += 1) {
    const byte = bytes[i];
    if (inString) {
      if (byte === BACKSLASH) i += 1;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) inString = true;
    else if (byte === OPEN_BRACKET || byte === OPEN_BRACE) {
      depth += 1;
      if (depth > limit) return true;
    } else if (byte === CLOSE_BRACKET || byte === CLOSE_BRACE) depth -= 1;
  }
  return false;
}

/**
 * Parses a JSON body the way the BFF accepts one: within the size and depth limits, no prototype pollution keys
 * (`__proto__`, `constructor.prototype`, as secure-json-parse refuses them), and every failure a 4xx in words. The
 * exact bytes are kept on the request so the service receives what the client sent, never a re-serialisation.
 */
export function parseJsonBody(request: FastifyRequest, bytes: Buffer): unknown {
  if (bytes.length === 0) throw badRequest(BODY_MESSAGES.empty);
  if (jsonDepthExceeds(bytes, JSON_DEPTH_LIMIT)) throw badRequest(BODY_MESSAGES.tooDeep);
  let value: unknown;
  try {
    value = sjson.parse(bytes, null, { protoAction: 'error', constructorAction: 'error' });
  } catch (err) {
    const text = (err as Error).message;
    throw badRequest(/prototype/i.test(text) ? BODY_MESSAGES.forbiddenKey : BODY_MESSAGES.notJson);
  }
  request.rawJson = bytes;
  return value;
}

/** Replaces the app's JSON parser with `parseJsonBody` (the size limit answers 413 in words). */
export function registerJsonBodyParser(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'buffer', bodyLimit: JSON_BODY_LIMIT },
    (request, bytes, done) => {
      try {
        done(null, parseJsonBody(request, bytes as Buffer));
      } catch (err) {
        done(err as AppError, undefined);
      }
    },
  );
}

/**
 * A JSON body announced larger than the limit is refused before a byte of it is read, in words (a chunked body
 * without a length still meets Fastify's own limit: 413 "Request body is too large").
 */
export function refuseLargeJson(request: FastifyRequest): void {
  const type = request.headers['content-type'];
  if (typeof type !== 'string' || !/^application\/json\b/i.test(type)) return;
  const length = Number(request.headers['content-length']);
  if (Number.isFinite(length) && length > JSON_BODY_LIMIT) throw new AppError('PAYLOAD_TOO_LARGE', BODY_MESSAGES.tooLarge);
}

/** An upload must say where its parts begin (`multipart/form-data; boundary=…`), or the service cannot read it. */
export function refuseMalformedMultipart(request: FastifyRequest): void {
  const type = request.headers['content-type'];
  const boundary =
    typeof type === 'string' && /^multipart\/form-data\s*;/i.test(type) ? /;\s*boundary=("?)([^";]+)\1/i.exec(type) : null;
  if (!boundary || boundary[2]!.trim() === '' || boundary[2]!.length > 70) throw badRequest(BODY_MESSAGES.notMultipart);
}

/** An upload that ended before its closing delimiter (`--boundary--`): cut short, unreadable. */
export class TruncatedUploadError extends Error {
  constructor() {
    super(BODY_MESSAGES.truncatedMultipart);
    this.name = 'TruncatedUploadError';
  }
}

/** The boundary of a `multipart/form-data` content type (checked by refuseMalformedMultipart). */
export const boundaryOf = (type: string | undefined): string | null =>
  (type && /;\s*boundary=("?)([^";]+)\1/i.exec(type)?.[2]) || null;

/**
 * Passes a streamed upload through unchanged, holding back only its last bytes until the end: when the stream ends
 * without the closing delimiter the stream fails instead (the upstream call is cut, the client gets a 400), so a
 * truncated upload never reaches the service as if it were whole. Memory: a few dozen bytes, whatever the size.
 */
export function multipartTailGuard(boundary: string): Transform {
  const closing = Buffer.from(`--${boundary}--`);
  const keep = closing.length + 8;
  let tail: Buffer = Buffer.alloc(0);
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      const all = tail.length ? Buffer.concat([tail, chunk]) : chunk;
      if (all.length <= keep) {
        tail = all;
        return done();
      }
      tail = Buffer.from(all.subarray(all.length - keep));
      done(null, all.subarray(0, all.length - keep));
    },
    flush(done) {
      let end = tail.length;
      while (end > 0 && [0x0d, 0x0a, 0x20, 0x09].includes(tail[end - 1]!)) end -= 1;
      if (end < closing.length || !tail.subarray(end - closing.length, end).equals(closing)) return done(new TruncatedUploadError());
      done(null, tail);
    },
  });
}
