import { Worker } from 'node:worker_threads';

/**
 * AES-256-GCM opens on a worker thread (ADR 0041): a rebuild's batch of sealed groups is decrypted there while the
 * main thread applies the previous batch. Only the crypto moves: the caller parses the plaintext and puts it back.
 * The worker is started on first use and does not keep the process alive while idle.
 */

/** The worker's code (CommonJS, run with `eval`: no file to find next to the build or the sources). */
const SOURCE = `
const { parentPort } = require('node:worker_threads');
const { createDecipheriv, createSecretKey } = require('node:crypto');
parentPort.on('message', ({ id, keys, jobs }) => {
  try {
    const keyObjects = keys.map((key) => createSecretKey(Buffer.from(key.buffer, key.byteOffset, key.byteLength)));
    const plain = new Array(jobs.length / 4);
    for (let i = 0, j = 0; i < jobs.length; i += 4, j += 1) {
      const decipher = createDecipheriv('aes-256-gcm', keyObjects[jobs[i]], Buffer.from(jobs[i + 1], 'base64'));
      decipher.setAuthTag(Buffer.from(jobs[i + 2], 'base64'));
      const head = decipher.update(jobs[i + 3], 'base64', 'utf8');
      plain[j] = head + decipher.final('utf8');
    }
    parentPort.postMessage({ id, plain });
  } catch (error) {
    parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
`;

export interface SealedJob {
  key: Buffer;
  iv: string;
  tag: string;
  ct: string;
}

interface Reply {
  id: number;
  plain?: string[];
  error?: string;
}

export class DecryptWorker {
  private worker: Worker | null = null;
  private nextId = 0;
  private readonly pending = new Map<number, { resolve: (plain: string[]) => void; reject: (error: Error) => void }>();

  /** The plaintexts (UTF-8) of `jobs`, in order; rejects as an inline `decipher.final()` would (a wrong tag, say). */
  decrypt(jobs: readonly SealedJob[]): Promise<string[]> {
    const keyIndex = new Map<Buffer, number>();
    const keys: Buffer[] = [];
    const flat: (number | string)[] = new Array(jobs.length * 4);
    jobs.forEach((job, i) => {
      let k = keyIndex.get(job.key);
      if (k === undefined) {
        k = keys.push(job.key) - 1;
        keyIndex.set(job.key, k);
      }
      flat[i * 4] = k;
      flat[i * 4 + 1] = job.iv;
      flat[i * 4 + 2] = job.tag;
      flat[i * 4 + 3] = job.ct;
    });
    const worker = this.start();
    const id = (this.nextId += 1);
    if (this.pending.size === 0) worker.ref();
    return new Promise<string[]>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ id, keys, jobs: flat });
    });
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(SOURCE, { eval: true });
    worker.unref();
    worker.on('message', (reply: Reply) => {
      const waiting = this.pending.get(reply.id);
      if (!waiting) return;
      this.pending.delete(reply.id);
      if (this.pending.size === 0) worker.unref();
      if (reply.error !== undefined) waiting.reject(new Error(reply.error));
      else waiting.resolve(reply.plain!);
    });
    const fail = (error: Error) => {
      this.worker = null;
      for (const waiting of this.pending.values()) waiting.reject(error);
      this.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`decrypt worker exited (${code})`)));
    this.worker = worker;
    return worker;
  }
}
