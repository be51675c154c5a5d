import { createHash, hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { Worker } from 'node:worker_threads';

/** A digest of a file's bytes, streamed (constant memory). */
export async function fileDigest(path: string, algorithm: 'sha256' | 'md5'): Promise<string> {
  const h = createHash(algorithm);
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 22 })) h.update(chunk as Buffer);
  return h.digest('hex');
}

/** SHA-256 of a file's bytes, streamed (constant memory). */
export function sha256File(path: string): Promise<string> {
  return fileDigest(path, 'sha256');
}

/**
 * The thread of sha256FilesInThread: reads each file in 4 MiB chunks into one Hash, and posts the
 * hex digests, or the first error's message and code.
 */
const HASH_THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const { openSync, readSync, closeSync } = require('node:fs');
const buf = Buffer.allocUnsafe(1 << 22);
try {
  const out = [];
  for (const path of workerData) {
    const h = createHash('sha256');
    const fd = openSync(path, 'r');
    try {
      for (;;) {
        const got = readSync(fd, buf, 0, buf.length, null);
        if (got === 0) break;
        h.update(buf.subarray(0, got));
      }
    } finally {
      closeSync(fd);
    }
    out.push(h.digest('hex'));
  }
  parentPort.postMessage({ hashes: out });
} catch (e) {
  parentPort.postMessage({ error: { message: e.message, code: e.code, syscall: e.syscall, path: e.path } });
}
`;

/** SHA-256s being computed in a thread of their own; `cancel` ends the thread (the promise then never settles). */
export interface HashesInThread {
  hashes: Promise<string[]>;
  cancel(): void;
}

/**
 * SHA-256 of each file, computed in a thread of its own, so that this thread can read the same
 * files meanwhile (the data load hashes its input while it parses it). The same digests as
 * sha256File; a read error is rethrown with its message and code.
 */
export function sha256FilesInThread(paths: readonly string[]): HashesInThread {
  const worker = new Worker(HASH_THREAD, { eval: true, workerData: [...paths] });
  const hashes = new Promise<string[]>((resolve, reject) => {
    worker.once('message', (msg: { hashes?: string[]; error?: { message: string; code?: string; syscall?: string; path?: string } }) => {
      if (msg.hashes) return resolve(msg.hashes);
      reject(Object.assign(new Error(msg.error!.message), msg.error));
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the hashing thread ended (exit code ${code}) without a result`)));
  });
  return { hashes, cancel: () => void worker.terminate() };
}

/** SHA-256 of a text (UTF-8) or bytes, as hex (one-shot: half the cost of a Hash object per call, which a plan pays per result). */
export function sha256Hex(text: string | Uint8Array): string {
  return hash('sha256', text, 'hex');
}

/** Stable JSON (sorted object keys) so that hashes of option objects do not depend on key order. */
export function stableStringify(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return '[' + value.map(stableStringify).join(',') + ']';
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj)
    .filter((k) => obj[k] !== undefined)
    .sort();
  return '{' + keys.map((k) => JSON.stringify(k) + ':' + stableStringify(obj[k])).join(',') + '}';
}
