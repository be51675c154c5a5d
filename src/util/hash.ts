import { createHash, hash } from 'node:crypto';
import { createReadStream } from 'node:fs';

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
