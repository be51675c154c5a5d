/**
 * A real HTTP server on 127.0.0.1 for the fetch tests: serves byte buffers at paths, honours
 * Range / If-Range (206, 416), sends ETag and Last-Modified, and can misbehave on purpose (drop the
 * connection half-way or stall, answer an error status, redirect, fail the first requests). Every request is recorded.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHash } from 'node:crypto';
import type { RegistryEntry } from '../../src/data/registry.js';

export interface Served {
  body: Buffer;
  /** drop the connection after this many body bytes, for the next `dropTimes` answers */
  dropAfter?: number;
  dropTimes?: number;
  /** answer this status instead (e.g. 404, 500) */
  status?: number;
  /** answer 302 to this path */
  redirectTo?: string;
  /** ignore Range headers (always 200) */
  noRanges?: boolean;
  /** answer 503 to the next `failFirst` requests (an outage), then serve */
  failFirst?: number;
  /** close the connection without an answer for the next `resetFirst` requests */
  resetFirst?: number;
  /** send this many body bytes, then nothing more (the connection stays open: a process to kill) */
  stallAfter?: number;
}

export interface FileServer {
  base: string;
  files: Map<string, Served>;
  requests: { path: string; range: string | null; ifRange: string | null; status: number }[];
  close: () => Promise<void>;
}

export async function startFileServer(): Promise<FileServer> {
  const files = new Map<string, Served>();
  const requests: FileServer['requests'] = [];
  /** answers left hanging by `stallAfter`, ended on close */
  const stalled = new Set<ServerResponse>();
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const f = files.get(path);
    const record = (status: number) => requests.push({ path, range: req.headers.range ?? null, ifRange: (req.headers['if-range'] as string) ?? null, status });
    if (!f) {
      record(404);
      res.writeHead(404).end('not found');
      return;
    }
    if (f.redirectTo) {
      record(302);
      res.writeHead(302, { location: f.redirectTo }).end();
      return;
    }
    if ((f.resetFirst ?? 0) > 0) {
      f.resetFirst! -= 1;
      record(0);
      req.socket.destroy();
      return;
    }
    if ((f.failFirst ?? 0) > 0) {
      f.failFirst! -= 1;
      record(503);
      res.writeHead(503).end('down for a moment');
      return;
    }
    if (f.status) {
      record(f.status);
      res.writeHead(f.status).end('error');
      return;
    }
    const etag = `"${createHash('sha256').update(f.body).digest('hex').slice(0, 16)}"`;
    const headers = { etag, 'last-modified': 'Wed, 26 Sep 2018 12:00:00 GMT', 'accept-ranges': 'bytes' };
    let start = 0;
    let status = 200;
    const range = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
    if (range && !f.noRanges && (req.headers['if-range'] === undefined || req.headers['if-range'] === etag)) {
      start = Number(range[1]);
      if (start >= f.body.length) {
        record(416);
        res.writeHead(416, { 'content-range': `bytes */${f.body.length}` }).end();
        return;
      }
      status = 206;
    }
    const body = f.body.subarray(start);
    record(status);
    res.writeHead(status, { ...headers, 'content-length': body.length, ...(status === 206 ? { 'content-range': `bytes ${start}-${f.body.length - 1}/${f.body.length}` } : {}) });
    if (f.stallAfter !== undefined) {
      res.write(body.subarray(0, f.stallAfter));
      stalled.add(res);
      return;
    }
    if (f.dropAfter !== undefined && (f.dropTimes ?? 1) > 0) {
      f.dropTimes = (f.dropTimes ?? 1) - 1;
      // a graceful close (FIN) after the bytes, so every byte sent arrives: a reset could drop some
      res.write(body.subarray(0, f.dropAfter), () => req.socket.end());
      return;
    }
    res.end(body);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    files,
    requests,
    close: () =>
      new Promise<void>((ok) => {
        for (const res of stalled) res.destroy();
        server.close(() => ok());
      }),
  };
}

/** A zip archive of `entries` (name → content), built with yazl. */
export async function makeZip(entries: Record<string, string | Buffer>): Promise<Buffer> {
  const { ZipFile } = await import('yazl');
  const zip = new ZipFile();
  for (const [name, content] of Object.entries(entries)) zip.addBuffer(Buffer.isBuffer(content) ? content : Buffer.from(content), name);
  zip.end();
  const chunks: Buffer[] = [];
  for await (const c of zip.outputStream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/**
 * The registry entry of a tiny MovieLens-format set served as `/datasets/tiny.zip` (its ratings in
 * `tiny-ml/ratings.csv` of `zip`), as the fetch tests use it.
 */
export function tinyZipEntry(zip: Buffer): RegistryEntry {
  return {
    name: 'tiny',
    title: 'tiny',
    format: 'movielens-csv',
    folder: 'tiny-ml',
    size: '1 kB',
    license: 'test data',
    citation: 'nobody',
    url: 'https://files.example.org/datasets/tiny.zip',
    md5: createHash('md5').update(zip).digest('hex'),
    files: [{ role: 'ratings', path: 'ratings.csv' }],
  };
}
