import { openSync, readSync, closeSync, fstatSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileError, UserError } from '../util/errors.js';
import type { Progress } from '../util/progress.js';

/** Longer lines mean a binary file or a missing newline; refuse instead of buffering the file. */
export const MAX_LINE_BYTES = 1 << 20;
const CHUNK_BYTES = 1 << 23;

/**
 * Called once per non-blank line with the line's bytes `buf[start, end)` (no CR/LF, no BOM).
 * `line` is 1-based. The buffer is reused: copy what you keep.
 */
export type LineHandler = (buf: Buffer, start: number, end: number, line: number) => void;

/**
 * A reader's fast path over whole lines (src/data/movielens.ts): `take` handles the lines of
 * `buf[start, limit)` it can, in order, each exactly as the line handler would, and stops at the
 * first it cannot (the scanner hands that one to the line handler, then calls `take` again). Every
 * line of `buf[start, limit)` ends with its newline before `limit`. Returns the position after the
 * last line taken; `lines` counts the lines taken.
 */
export interface LineRun {
  take(buf: Buffer, start: number, limit: number): number;
  lines: number;
}

/** Open a file for reading, turning "missing" / "is a directory" into one-line user errors. */
export function openInput(path: string): { fd: number; bytes: number } {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    // the absolute path: a relative one may have been resolved against another folder than the user thinks
    if (code === 'ENOENT') throw fileError(resolve(path), undefined, 'no such file');
    if (code === 'EACCES') throw fileError(path, undefined, 'permission denied');
    throw fileError(path, undefined, `cannot open (${code ?? (e as Error).message})`);
  }
  const st = fstatSync(fd);
  if (st.isDirectory()) {
    closeSync(fd);
    throw fileError(path, undefined, 'is a directory, expected a file');
  }
  return { fd, bytes: st.size };
}

/**
 * Stream a file line by line over big Buffer chunks (memory does not grow with the file size).
 * Handles a UTF-8 BOM, CRLF and LF, a last line without newline; blank lines are skipped but counted.
 * Returns the number of lines seen (including blank ones).
 */
export function scanLines(path: string, onLine: LineHandler, progress?: Progress, fast?: LineRun): number {
  const { fd, bytes } = openInput(path);
  progress?.start(`read ${path.split(/[\\/]/).pop()}`, bytes);
  // a small file gets a small buffer (grown below when a line needs it): no 8 MiB allocation per tiny file
  let buf = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, Math.max(1 << 16, bytes + 1)));
  let filled = 0; // bytes of buf holding data
  let lineNo = 0;
  let first = true;
  try {
    for (;;) {
      if (filled === buf.length) {
        // a single line fills the whole buffer
        if (buf.length >= MAX_LINE_BYTES + CHUNK_BYTES) throw fileError(path, lineNo + 1, `line longer than ${MAX_LINE_BYTES} bytes (binary file?)`);
        const bigger = Buffer.allocUnsafe(buf.length * 2);
        buf.copy(bigger, 0, 0, filled);
        buf = bigger;
      }
      const got = readSync(fd, buf, filled, buf.length - filled, null);
      const eof = got === 0;
      progress?.increment(got);
      let start = 0;
      if (first && filled + got > 0) {
        first = false;
        if (filled + got >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) start = 3;
      }
      const end = filled + got;
      let nl: number;
      let searchFrom = Math.max(start, filled);
      // the fast path's lines: those before the chunk's last newline (a carried partial line included)
      const limit = fast && end > searchFrom ? buf.lastIndexOf(10, end - 1) + 1 : 0;
      for (;;) {
        if (start < limit) {
          const taken = fast!.lines;
          const at = fast!.take(buf, start, limit);
          if (at > start) {
            lineNo += fast!.lines - taken;
            start = at;
            searchFrom = at;
          }
        }
        nl = buf.indexOf(10, searchFrom);
        if (nl === -1 || nl >= end) break;
        lineNo++;
        let e = nl;
        if (e > start && buf[e - 1] === 13) e--;
        if (e - start > MAX_LINE_BYTES) throw fileError(path, lineNo, `line longer than ${MAX_LINE_BYTES} bytes (binary file?)`);
        if (e > start) onLine(buf, start, e, lineNo);
        start = nl + 1;
        searchFrom = start;
      }
      if (eof) {
        if (end > start) {
          lineNo++;
          let e = end;
          if (buf[e - 1] === 13) e--;
          if (e > start) onLine(buf, start, e, lineNo);
        }
        break;
      }
      // keep the partial line at the front of the buffer
      if (start > 0) buf.copy(buf, 0, start, end);
      filled = end - start;
      if (filled > MAX_LINE_BYTES) throw fileError(path, lineNo + 1, `line longer than ${MAX_LINE_BYTES} bytes (binary file?)`);
    }
  } finally {
    closeSync(fd);
    progress?.stop();
  }
  return lineNo;
}

/**
 * Split `buf[start, end)` on runs of spaces and tabs (`delimiter: whitespace`), leading and trailing
 * ones ignored: the bounds of the first `max` fields into `bounds` (start, end pairs); returns the
 * number of fields of the line.
 */
export function splitWhitespace(buf: Buffer, start: number, end: number, bounds: Int32Array, max: number): number {
  let count = 0;
  let i = start;
  while (i < end) {
    while (i < end && (buf[i] === 32 || buf[i] === 9)) i++;
    if (i >= end) break;
    const fieldStart = i;
    while (i < end && buf[i] !== 32 && buf[i] !== 9) i++;
    if (count < max) {
      bounds[2 * count] = fieldStart;
      bounds[2 * count + 1] = i;
    }
    count++;
  }
  return count;
}

export const POW10 = [1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];

/**
 * Parse a plain decimal `[-]digits[.digits]` from bytes, or NaN when the field is anything else
 * (the caller then falls back to `Number()` on the decoded text). mantissa / 10^k with both exact
 * doubles is correctly rounded, so the result equals `Number(text)` bit for bit.
 */
export function parseDecimalBytes(buf: Buffer, start: number, end: number): number {
  let i = start;
  let neg = false;
  if (i < end && buf[i] === 45) {
    neg = true;
    i++;
  }
  if (i >= end) return NaN;
  let mant = 0;
  let digits = 0;
  let frac = -1;
  for (; i < end; i++) {
    const c = buf[i]!;
    if (c >= 48 && c <= 57) {
      mant = mant * 10 + (c - 48);
      digits++;
      if (frac >= 0) frac++;
    } else if (c === 46 && frac < 0) {
      frac = 0;
    } else return NaN;
  }
  if (digits === 0 || digits > 15 || frac > 15) return NaN;
  const v = frac > 0 ? mant / POW10[frac]! : mant;
  return neg ? -v : v;
}

/** Parse an unsigned integer of at most 15 digits, or -1 when the bytes are anything else. */
export function parseUintBytes(buf: Buffer, start: number, end: number): number {
  if (end <= start || end - start > 15) return -1;
  let v = 0;
  for (let i = start; i < end; i++) {
    const c = buf[i]!;
    if (c < 48 || c > 57) return -1;
    v = v * 10 + (c - 48);
  }
  return v;
}

/** A field as text for error messages (invalid UTF-8 shows as U+FFFD), shortened. */
export function fieldText(buf: Buffer, start: number, end: number): string {
  const s = visible(buf.toString('utf8', start, Math.min(end, start + 60)));
  return end - start > 60 ? s + '…' : s;
}

/** Control characters and undecodable bytes (U+FFFD) as escapes, so an error line shows them. */
export function visible(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is this function's purpose
  return text.replace(/[\u0000-\u001f\u007f-\u009f\ufffd]/g, (c) => (c === '\t' ? '\\t' : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));
}

/** Plain decimal notation (optional sign, digits, point, exponent); `Number()` alone would also
 *  accept hex (0x10), binary (0b11), octal (0o7) and surrounding whitespace as numbers. */
const DECIMAL_RE = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** The value of a decimal field, or NaN when the text is not a plain decimal number. */
export function parseDecimal(text: string): number {
  return DECIMAL_RE.test(text) ? Number(text) : NaN;
}

/** How to get past a malformed row, appended to its error (lenient reading: docs/RUNNING.md, "Bad input"). */
export const SKIP_BAD_ROWS_HINT = ' (to skip malformed rows: --skip-bad-rows, or skip_bad_rows: true on the data set)';

/** A malformed row's error with the lenient-reading hint (other errors pass unchanged). */
export function badRowError(e: unknown): unknown {
  return e instanceof UserError && !e.message.endsWith(SKIP_BAD_ROWS_HINT) ? new UserError(e.message + SKIP_BAD_ROWS_HINT, e.exitCode) : e;
}
