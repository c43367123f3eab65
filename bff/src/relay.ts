import { Readable } from 'node:stream';
import { util as undiciUtil, type Dispatcher, type Pool } from 'undici';
import { BUFFERED_BODY_MAX } from './compression.js';

// The relay's read of one upstream answer (ADR 0035, 0047); the balancing among instances is in ./upstreams.ts.

export type RequestOptions = Omit<Dispatcher.RequestOptions, 'origin'>;

/** Whether an upstream answer is read whole before it is relayed: a declared length within the limit, not a HEAD. */
export function bufferable(body: { method: string; contentLength: string | undefined }): boolean {
  if (body.method === 'HEAD' || body.contentLength === undefined) return false;
  const length = Number(body.contentLength);
  return Number.isInteger(length) && length >= 0 && length <= BUFFERED_BODY_MAX;
}

/** A service's answer as the relay reads it: a body declared small is read whole (a promise of its bytes), any other streams. */
export interface Relayed {
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  body: Promise<Buffer> | Readable;
}

/** The streamed body of a relayed answer: undici's reads pause while it is full, and destroying it ends the call. */
class RelayedStream extends Readable {
  ended = false;
  constructor(
    private readonly resumeUpstream: () => void,
    private readonly abortUpstream: (err: Error) => void,
  ) {
    super();
  }
  override _read(): void {
    this.resumeUpstream();
  }
  override _destroy(err: Error | null, callback: (error?: Error | null) => void): void {
    // A client gone, or a reply given up on, before the service finished: the call (and its connection) ends here.
    if (!this.ended) this.abortUpstream(err ?? new Error('The relayed answer was not read to its end.'));
    callback(err);
  }
}

/**
 * One call on `pool`, read by the relay's own dispatch handler instead of `pool.request` (ADR 0047). `request` builds
 * an async resource, a body stream and a consumer for every answer; the relay reads almost every answer whole
 * (`bufferable`), so it keeps the chunks until the end and joins them once. The promise settles with the status and
 * headers, as `request`'s does; a body cut short rejects the body's promise, not the call's, so the caller tells the
 * two apart as before. Any other answer (no length, or over the limit, or HEAD) streams, with backpressure.
 * Same options, pool, timeouts and errors as `pool.request`; not for a request whose body is a stream (the `signal`
 * option is not read here).
 */
export function relay(pool: Pool, options: RequestOptions): Promise<Relayed> {
  return new Promise<Relayed>((resolve, reject) => {
    let abort: (err: Error) => void = () => undefined;
    let chunks: Buffer[] | null = null;
    let stream: RelayedStream | null = null;
    let settleBody: { resolve: (body: Buffer) => void; reject: (err: Error) => void } | null = null;
    let started = false;
    pool.dispatch(options, {
      onConnect(abortCall: (err: Error) => void) {
        abort = abortCall;
      },
      onHeaders(statusCode: number, rawHeaders: Buffer[], resume: () => void): boolean {
        // 1xx: informational, the answer is still to come.
        if (statusCode < 200) return true;
        started = true;
        const headers = undiciUtil.parseHeaders(rawHeaders) as Relayed['headers'];
        const length = headers['content-length'];
        if (
          bufferable({ method: options.method, contentLength: Array.isArray(length) ? length[0] : length })
        ) {
          chunks = [];
          const body = new Promise<Buffer>((resolveBody, rejectBody) => {
            settleBody = { resolve: resolveBody, reject: rejectBody };
          });
          // Whoever reads the answer awaits this; one dropped (a 503 resent elsewhere) must not be an unhandled rejection.
          body.catch(() => undefined);
          resolve({ statusCode, headers, body });
          return true;
        }
        stream = new RelayedStream(resume, (err) => abort(err));
        resolve({ statusCode, headers, body: stream });
        return true;
      },
      onData(chunk: Buffer): boolean {
        if (chunks) {
          chunks.push(chunk);
          return true;
        }
        return stream!.push(chunk);
      },
      onComplete(): void {
        if (chunks) settleBody!.resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
        else if (stream) {
          stream.ended = true;
          stream.push(null);
        }
      },
      onError(err: Error): void {
        if (!started) reject(err);
        else if (settleBody) settleBody.reject(err);
        else if (stream) {
          stream.ended = true;
          stream.destroy(err);
        }
      },
    });
  });
}

/** Drops a relayed answer that will not be sent (a 503 resent to another instance): read to its end, or cut. */
export async function discardRelayed(response: Relayed): Promise<void> {
  if (response.body instanceof Promise) await response.body;
  else response.body.destroy();
}
