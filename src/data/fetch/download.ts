/**
 * A resumable download to a file on disk (streamed, never the whole body in memory). A partial
 * file `<part>` keeps what arrived and `<part>.json` the validators of the answer it came from
 * (ETag, Last-Modified, URL) and whether the server honours ranges. A later call resumes with
 * `Range: bytes=N-` and `If-Range`: a 206 answer appends; a 200 (the file changed, or the server
 * ignores ranges) starts over; a 416 discards the partial file and starts over. A lost connection,
 * a refused one and a 5xx/429 answer are retried, resuming where the server allows, up to
 * `attempts` tries, waiting 1, 2, 4, 8… s between them (a short outage is survived); a host name
 * that does not resolve is not (LOOKUP_TRIES). What a failure
 * says of a rerun is what a rerun does: bytes are said to be kept only when the server can resume
 * them. Redirects are followed (at most 10). Proxy variables (HTTPS_PROXY…) are not honoured: use
 * --mirror for a local mirror instead.
 */
import { closeSync, existsSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { writeFileAtomicSync } from '../../util/atomic.js';
import { InterruptedError, UserError, withPath } from '../../util/errors.js';
import { describeFsError } from '../../util/fsProblems.js';
import { formatCount } from '../../util/format.js';

export interface DownloadOptions {
  /** bytes so far and the total when known, after each chunk */
  onProgress?: (done: number, total: number | null) => void;
  /** tries in all, the first included (default 5: waits of 1, 2, 4 and 8 s between them) */
  attempts?: number;
  /** the wait between tries (tests give one that records and returns at once) */
  sleep?: (ms: number) => Promise<void>;
  /** a line for the log (retrying, resuming, restarting) */
  log?: (line: string) => void;
  /** aborts the download (SIGINT): it rejects with an InterruptedError saying what is kept */
  signal?: AbortSignal;
  /** a connection silent this long is lost (default 60 s) */
  idleMs?: number;
  /** the host name lookup (tests give one that fails as an offline machine's does); default the system's */
  lookup?: LookupFunction;
}

interface Validators {
  url: string;
  etag: string | null;
  lastModified: string | null;
  /** does the server honour ranges: its Accept-Ranges, or what it did with one (null: unknown) */
  ranges?: boolean | null;
  /** the file's size when the server said it: a partial file this long is complete */
  total?: number | null;
}

/** The wait before try `attempt + 1`: 1, 2, 4, 8… s. */
export const backoffMs = (attempt: number): number => 1000 * 2 ** (attempt - 1);

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

/** What failed: the connection (offline, refused, no such host), the server (5xx), the transfer. */
export type FailureKind = 'connection' | 'server' | 'transfer';

/** A failure worth retrying (as opposed to an HTTP 404 or a bad URL); `tries`: at most this many for it. */
class Interrupted extends Error {
  constructor(
    message: string,
    readonly kind: FailureKind,
    readonly tries?: number,
  ) {
    super(message);
  }
}

/**
 * Lookup failures and how often they are worth a try: a name that does not resolve (ENOTFOUND,
 * what an offline machine answers) is no passing outage, so it is said at once; a lookup that
 * could not be made this time (EAI_AGAIN, a DNS server that did not answer) is tried once more.
 */
const LOOKUP_TRIES: Readonly<Record<string, number>> = { ENOTFOUND: 1, EAI_AGAIN: 2 };

/** The download failed after its tries; `kind` says what failed, for the caller's way out. */
export class DownloadFailed extends UserError {
  constructor(
    message: string,
    readonly kind: FailureKind,
  ) {
    super(message);
  }
}

/** What a partial download holds that a rerun resumes from: its bytes, or null when a rerun starts over. */
export function resumableBytes(part: string, url: string): number | null {
  const have = existsSync(part) ? statSync(part).size : 0;
  const v = have > 0 ? readValidators(part, url) : null;
  return v && v.ranges !== false ? have : null;
}

/** Why a partial download cannot be resumed, for a message. */
function whyNotResumable(part: string, url: string): string {
  const v = readValidators(part, url);
  if (!v) return 'the server sent no ETag or Last-Modified to resume against';
  return 'the server does not resume downloads (it ignores Range requests)';
}

/** What a failed or interrupted download leaves, as the end of its message (true of a rerun). */
export function keptNote(part: string, url: string): string {
  const kept = resumableBytes(part, url);
  if (kept !== null) return `${formatCount(kept)} bytes kept in ${part}: run the same command again to resume`;
  const had = existsSync(part) ? statSync(part).size : 0;
  if (had === 0) return 'nothing downloaded';
  const why = whyNotResumable(part, url);
  discardPartial(part);
  return `nothing kept (${why}): a rerun downloads it from the start`;
}

function throwIfAborted(signal: AbortSignal | undefined, part: string, url: string): void {
  if (!signal?.aborted) return;
  const sig = (signal.reason === 'SIGTERM' ? 'SIGTERM' : 'SIGINT') as NodeJS.Signals;
  throw new InterruptedError(sig, `interrupted by ${sig}: ${keptNote(part, url)}`);
}

/**
 * Wait `ms` between tries, or less when `signal` aborts (Ctrl-C): the timer is cleared then, so a
 * pending wait does not keep the interrupted process alive.
 */
function pause(ms: number, signal: AbortSignal | undefined, sleep?: (ms: number) => Promise<void>): Promise<void> {
  return new Promise((ok) => {
    let timer: NodeJS.Timeout | undefined;
    const done = () => {
      if (timer) clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      ok();
    };
    signal?.addEventListener('abort', done, { once: true });
    if (sleep) sleep(ms).then(done, done);
    else timer = setTimeout(done, ms);
  });
}

/** Download `url` into `part` (resuming what is there), and return its size. */
export async function download(url: string, part: string, opts: DownloadOptions = {}): Promise<number> {
  const attempts = opts.attempts ?? 5;
  for (let attempt = 1; ; attempt++) {
    try {
      return await downloadOnce(url, part, opts);
    } catch (e) {
      throwIfAborted(opts.signal, part, url);
      if (!(e instanceof Interrupted)) throw e;
      if (e.tries === 1) throw new DownloadFailed(`${e.message}: the name does not resolve (offline, or no such host), which waiting does not mend, so not retried; ${keptNote(part, url)}`, e.kind);
      const limit = Math.min(attempts, e.tries ?? attempts);
      if (attempt >= limit) throw new DownloadFailed(`${e.message}; gave up after ${limit === 1 ? 'one try' : `${limit} tries`}; ${keptNote(part, url)}`, e.kind);
      const wait = backoffMs(attempt);
      const kept = resumableBytes(part, url);
      const from = kept !== null ? `, resuming at ${formatCount(kept)} bytes` : existsSync(part) && statSync(part).size > 0 ? ', from the start (the server cannot resume)' : '';
      opts.log?.(`${e.message}; trying again in ${wait / 1000} s (${attempt + 1} of ${limit})${from}`);
      await pause(wait, opts.signal, opts.sleep);
      throwIfAborted(opts.signal, part, url);
    }
  }
}

/** Why a connection failed, in words (the code kept for searching). */
const CONNECTION_WORDS: Record<string, string> = {
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed',
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ETIMEDOUT: 'no answer',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ENETDOWN: 'network down',
};

/** A retried answer: the server's trouble (5xx) or its request to slow down (429). */
const RETRIED_STATUS = (status: number) => status >= 500 || status === 429;

/** The If-Range value of stored validators: a strong ETag, else the Last-Modified date. */
const ifRangeOf = (v: Validators): string => (v.etag && !v.etag.startsWith('W/') ? v.etag : (v.lastModified ?? v.etag!));

/**
 * Ask for `url` from byte `from` (0: the whole file); return the answer to read and where it
 * starts (0 when the server sent the whole file). Records the answer's validators.
 */
async function openAnswer(url: string, part: string, opts: DownloadOptions): Promise<{ res: IncomingMessage; from: number; total: number | null }> {
  const have = existsSync(part) ? statSync(part).size : 0;
  const validators = have > 0 ? readValidators(part, url) : null;
  if (have > 0 && !validators) discardPartial(part); // nothing to tell the server the file is the same
  const from = validators ? have : 0;
  const headers: Record<string, string> = { 'user-agent': 'lshdp' };
  if (from > 0) {
    headers.range = `bytes=${from}-`;
    headers['if-range'] = ifRangeOf(validators!);
  }
  const res = await request(url, headers, opts);
  const status = res.statusCode ?? 0;
  if (status === 416) {
    // the range is past the end: the partial file is not a prefix of this file
    res.resume();
    discardPartial(part);
    opts.log?.(`${url}: the server refused to resume (HTTP 416); starting over`);
    return openAnswer(url, part, opts);
  }
  if (status < 200 || status > 299) {
    res.resume();
    const line = `${url}: HTTP ${status}${res.statusMessage ? ` ${res.statusMessage}` : ''}`;
    if (RETRIED_STATUS(status)) throw new Interrupted(line, 'server');
    throw new UserError(line);
  }
  const append = from > 0 && status === 206;
  const etag = res.headers.etag ?? null;
  const acceptRanges = res.headers['accept-ranges'];
  let ranges: boolean | null = acceptRanges === 'none' ? false : acceptRanges === 'bytes' ? true : null;
  if (append) ranges = true;
  else if (from > 0) {
    // the same file (its validator unchanged) sent whole: this server ignores ranges
    const same = headers['if-range'] === etag || headers['if-range'] === res.headers['last-modified'];
    if (same) ranges = false;
    opts.log?.(`${url}: ${same ? 'the server ignores the range asked for' : 'the file changed on the server'}; starting over from byte 0`);
  }
  if (append) {
    const range = /^bytes (\d+)-/.exec(res.headers['content-range'] ?? '');
    if (!range || Number(range[1]) !== from) {
      res.resume();
      discardPartial(part);
      throw new Interrupted(`${url}: the server answered a different range (${res.headers['content-range']})`, 'transfer');
    }
  }
  const length = res.headers['content-length'];
  const total = length !== undefined ? (append ? from : 0) + Number(length) : null;
  if (append) opts.log?.(`${url}: resuming at ${formatCount(from)} bytes${total !== null ? ` of ${formatCount(total)}` : ''}`);
  writeFileAtomicSync(metaOf(part), JSON.stringify({ url, etag, lastModified: res.headers['last-modified'] ?? null, ranges, total } satisfies Validators) + '\n');
  return { res, from: append ? from : 0, total };
}

async function downloadOnce(url: string, part: string, opts: DownloadOptions): Promise<number> {
  // a download that completed before its install was interrupted: nothing to ask for (asking for
  // the bytes past its end would get a 416 and a download from zero)
  const have = existsSync(part) ? statSync(part).size : 0;
  const known = have > 0 ? readValidators(part, url) : null;
  if (known && typeof known.total === 'number' && known.total === have) {
    opts.log?.(`${url}: downloaded before (${formatCount(have)} bytes); verifying it`);
    return have;
  }
  const { res, from, total } = await openAnswer(url, part, opts);
  let done = from;
  opts.onProgress?.(done, total);
  // Each chunk is written synchronously in its 'data' event, as it arrives: every byte received is
  // on disk when the connection drops, so the resume starts exactly where the transfer stopped.
  const fd = openSync(part, from > 0 ? 'a' : 'w');
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
        else fail(new Interrupted(`${url}: the connection was lost after ${formatCount(done)} bytes${total !== null ? ` of ${formatCount(total)}` : ''}`, 'transfer'));
      });
    });
  } finally {
    closeSync(fd);
  }
  return done;
}

/** A GET of `url` (http or https), following redirects; a transport failure is retried by the caller. */
function request(url: string, headers: Record<string, string>, opts: DownloadOptions, redirects = 0): Promise<IncomingMessage> {
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
    const req = client.get(u, { headers, signal: opts.signal, ...(opts.lookup ? { lookup: opts.lookup } : {}) }, (res) => {
      const location = res.headers.location;
      if ([301, 302, 303, 307, 308].includes(res.statusCode ?? 0) && location) {
        res.resume();
        if (redirects >= 10) fail(new UserError(`${url}: more than 10 redirects`));
        else request(new URL(location, u).href, headers, opts, redirects + 1).then(ok, fail);
        return;
      }
      ok(res);
    });
    // a connection that stalls (no byte for idleMs, before or during the body) counts as lost
    const idleMs = opts.idleMs ?? 60_000;
    req.setTimeout(idleMs, () => req.destroy(Object.assign(new Error(`no data for ${idleMs / 1000} s`), { code: 'ETIMEDOUT' })));
    req.on('error', (e: NodeJS.ErrnoException) => {
      const words = e.code ? CONNECTION_WORDS[e.code] : undefined;
      const what = words ? `${words} (${e.code})` : (e.code ?? e.message);
      fail(new Interrupted(`${url}: ${what}`, e.code === 'ECONNRESET' ? 'transfer' : 'connection', e.code ? LOOKUP_TRIES[e.code] : undefined));
    });
  });
}
