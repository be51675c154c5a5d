/**
 * A resumable download to a file on disk (streamed, never the whole body in memory). A partial
 * file `<part>` keeps what arrived and `<part>.json` the validators of the answer it came from
 * (ETag, Last-Modified, URL). A later call resumes with `Range: bytes=N-` and `If-Range`: a 206
 * answer appends; a 200 (the file changed, or the server ignores ranges) starts over; a 416
 * discards the partial file and starts over. A connection lost mid-body is retried, resuming,
 * up to `attempts` times. Redirects are followed (at most 10). Proxy variables (HTTPS_PROXY…) are
 * not honoured: use --mirror for a local mirror instead.
 */
import { closeSync, existsSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { writeFileAtomicSync } from '../../util/atomic.js';
import { UserError, withPath } from '../../util/errors.js';
import { describeFsError } from '../../util/fsProblems.js';
import { formatCount } from '../../util/format.js';

export interface DownloadOptions {
  /** bytes so far and the total when known, after each chunk */
  onProgress?: (done: number, total: number | null) => void;
  /** tries after a lost connection (default 4) */
  attempts?: number;
  /** a line for the log (resuming, restarting) */
  log?: (line: string) => void;
}

interface Validators {
  url: string;
  etag: string | null;
  lastModified: string | null;
}

const metaOf = (part: string) => `${part}.json`;

function readValidators(part: string, url: string): Validators | null {
  try {
    const v = JSON.parse(readFileSync(metaOf(part), 'utf8')) as Validators;
    return v.url === url && (v.etag || v.lastModified) ? v : null;
  } catch {
    return null;
  }
}

/** Forget a partial download (after it was used, or when it cannot be resumed). */
export function discardPartial(part: string): void {
  rmSync(part, { force: true });
  rmSync(metaOf(part), { force: true });
}

/** A transport failure worth retrying (as opposed to an HTTP error status). */
class Interrupted extends Error {}

/** Download `url` into `part` (resuming what is there), and return its size. */
export async function download(url: string, part: string, opts: DownloadOptions = {}): Promise<number> {
  const attempts = opts.attempts ?? 4;
  let lastError: Error | null = null;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    try {
      return await downloadOnce(url, part, opts);
    } catch (e) {
      if (!(e instanceof Interrupted)) throw e;
      lastError = e;
      if (attempt < attempts) opts.log?.(`${e.message}; trying again (${attempt + 1} of ${attempts})${existsSync(part) ? ', resuming' : ''}`);
    }
  }
  const kept = existsSync(part) ? statSync(part).size : 0;
  throw new UserError(`${lastError!.message}${kept > 0 ? `; ${formatCount(kept)} bytes kept: run the same command again to resume` : ''}`);
}

async function downloadOnce(url: string, part: string, opts: DownloadOptions): Promise<number> {
  const have = existsSync(part) ? statSync(part).size : 0;
  const validators = have > 0 ? readValidators(part, url) : null;
  if (have > 0 && !validators) discardPartial(part); // nothing to tell the server the file is the same
  const from = validators ? have : 0;
  const headers: Record<string, string> = { 'user-agent': 'lshdp' };
  if (from > 0) {
    headers.range = `bytes=${from}-`;
    headers['if-range'] = validators!.etag && !validators!.etag.startsWith('W/') ? validators!.etag : (validators!.lastModified ?? validators!.etag!);
  }
  const res = await request(url, headers);
  const status = res.statusCode ?? 0;
  if (status === 416) {
    // the range is past the end: the partial file is not a prefix of this file
    res.resume();
    discardPartial(part);
    opts.log?.(`${url}: the server refused to resume (HTTP 416); starting over`);
    return downloadOnce(url, part, opts);
  }
  if (status < 200 || status > 299) {
    res.resume();
    throw new UserError(`${url}: HTTP ${status}${res.statusMessage ? ` ${res.statusMessage}` : ''}`);
  }
  const append = from > 0 && status === 206;
  if (from > 0 && !append) opts.log?.(`${url}: the file changed or the server does not resume; starting over`);
  if (append) {
    const range = /^bytes (\d+)-/.exec(res.headers['content-range'] ?? '');
    if (!range || Number(range[1]) !== from) {
      res.resume();
      discardPartial(part);
      throw new Interrupted(`${url}: the server answered a different range (${res.headers['content-range']})`);
    }
  }
  const length = res.headers['content-length'];
  const total = length !== undefined ? (append ? from : 0) + Number(length) : null;
  const etag = res.headers.etag ?? null;
  writeFileAtomicSync(metaOf(part), JSON.stringify({ url, etag, lastModified: res.headers['last-modified'] ?? null } satisfies Validators) + '\n');
  let done = append ? from : 0;
  opts.onProgress?.(done, total);
  // Each chunk is written synchronously in its 'data' event, as it arrives: every byte received is
  // on disk when the connection drops, so the resume starts exactly where the transfer stopped.
  const fd = openSync(part, append ? 'a' : 'w');
  try {
    await new Promise<void>((ok, fail) => {
      let failed = false;
      res.on('data', (chunk: Buffer) => {
        if (failed) return;
        try {
          writeSync(fd, chunk);
        } catch (e) {
          failed = true;
          res.destroy();
          fail(new UserError(describeFsError(withPath(e, part)) ?? `${part}: cannot write (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`));
          return;
        }
        done += chunk.length;
        opts.onProgress?.(done, total);
      });
      res.on('error', () => undefined); // reported by 'close' below
      res.on('close', () => {
        if (failed) return;
        if (res.complete && (total === null || done === total)) ok();
        else fail(new Interrupted(`${url}: the connection was lost after ${formatCount(done)} bytes${total !== null ? ` of ${formatCount(total)}` : ''}`));
      });
    });
  } finally {
    closeSync(fd);
  }
  return done;
}

/** A GET of `url` (http or https), following redirects; a transport failure is retried by the caller. */
function request(url: string, headers: Record<string, string>, redirects = 0): Promise<IncomingMessage> {
  return new Promise((ok, fail) => {
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      fail(new UserError(`not a URL: "${url}"`));
      return;
    }
    const client = u.protocol === 'https:' ? https : u.protocol === 'http:' ? http : null;
    if (!client) {
      fail(new UserError(`${url}: only http and https URLs are fetched`));
      return;
    }
    const req = client.get(u, { headers }, (res) => {
      const location = res.headers.location;
      if ([301, 302, 303, 307, 308].includes(res.statusCode ?? 0) && location) {
        res.resume();
        if (redirects >= 10) fail(new UserError(`${url}: more than 10 redirects`));
        else request(new URL(location, u).href, headers, redirects + 1).then(ok, fail);
        return;
      }
      ok(res);
    });
    req.on('error', (e: NodeJS.ErrnoException) => fail(new Interrupted(`${url}: ${e.code ?? e.message}`)));
  });
}
