/**
 * Property-based tests of every reader through the CLI's entry function (in-process): valid files in
 * each format, then the same files mutated byte by byte (delimiters, quotes, NUL, invalid UTF-8, a
 * BOM, CR, truncation, duplicated and dropped lines). Whatever the bytes: no stack trace, no partial
 * output, either exit 0 with a whole JSON report or exit 2 with one `lshdp: error:` line.
 * Seeded (FUZZ_SEED), so a failure replays; fast-check prints the shrunk counterexample.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { cli, expectCleanOutcome, runs } from './inproc.js';

const FUZZ_SEED = 20211004;
const dir = mkdtempSync(join(tmpdir(), 'lshdp-fuzz-readers-'));

/** Bytes that matter to the readers: separators, quotes, line ends, signs, NUL, invalid UTF-8. */
const NASTY = [',', '\t', ':', '::', '"', '\n', '\r', '\r\n', '\0', '\xff', '\ufeff', '-', '.', 'e', '+', ' ', '0', '9', 'a', 'NaN', 'Infinity', '1e309', '0x10', '\u00e9'];

interface Mutation {
  kind: 'insert' | 'delete' | 'replace' | 'truncate' | 'dupline' | 'dropline';
  at: number;
  len: number;
  text: string;
}
const mutation: fc.Arbitrary<Mutation> = fc.record({
  kind: fc.constantFrom('insert', 'delete', 'replace', 'truncate', 'dupline', 'dropline'),
  at: fc.nat(),
  len: fc.integer({ min: 1, max: 8 }),
  text: fc.oneof(fc.constantFrom(...NASTY), fc.string({ maxLength: 4 })),
});

function mutate(text: string, ms: Mutation[]): Buffer {
  let b = Buffer.from(text, 'latin1');
  for (const m of ms) {
    const at = b.length === 0 ? 0 : m.at % (b.length + 1);
    const ins = Buffer.from(m.text, m.text === '\xff' ? 'latin1' : 'utf8');
    if (m.kind === 'insert') b = Buffer.concat([b.subarray(0, at), ins, b.subarray(at)]);
    else if (m.kind === 'delete') b = Buffer.concat([b.subarray(0, at), b.subarray(at + m.len)]);
    else if (m.kind === 'replace') b = Buffer.concat([b.subarray(0, at), ins, b.subarray(at + m.len)]);
    else if (m.kind === 'truncate') b = b.subarray(0, at);
    else {
      const lines = b.toString('latin1').split('\n');
      const i = m.at % lines.length;
      if (m.kind === 'dupline') lines.splice(i, 0, lines[i]!);
      else lines.splice(i, 1);
      b = Buffer.from(lines.join('\n'), 'latin1');
    }
  }
  return b;
}

const id = fc.integer({ min: 0, max: 40 });
const rating = fc.constantFrom('0.5', '1', '2.5', '3.0', '4', '5', '4.5');
const stamp = fc.integer({ min: 0, max: 2_000_000_000 }).map(String);
const rows = <T>(row: fc.Arbitrary<T>) => fc.array(row, { minLength: 1, maxLength: 30 });
const word = fc.stringMatching(/^[A-Za-z0-9]{1,6}$/);

interface Case {
  format: string;
  /** the main file's text (latin1 bytes) */
  text: fc.Arbitrary<string>;
  /** extra files (name → text) and flags */
  extra?: { poi: fc.Arbitrary<string> };
  flags?: string[];
}

const CASES: Case[] = [
  { format: 'movielens-csv', text: rows(fc.tuple(id, id, rating, stamp)).map((rs) => 'userId,movieId,rating,timestamp\n' + rs.map((r) => r.join(',') + '\n').join('')) },
  { format: 'movielens-100k', text: rows(fc.tuple(id, id, rating, stamp)).map((rs) => rs.map((r) => r.join('\t') + '\n').join('')) },
  { format: 'movielens-1m', text: rows(fc.tuple(id, id, rating, stamp)).map((rs) => rs.map((r) => r.join('::') + '\n').join('')) },
  { format: 'movielens-10m', text: rows(fc.tuple(id, id, rating, stamp)).map((rs) => rs.map((r) => r.join('::') + '\n').join('')) },
  {
    format: 'foursquare-tsmc',
    text: rows(fc.tuple(id, word)).map((rs) => rs.map(([u, v]) => `${u}\t${v}\tcat\tCafe\t40.7\t-73.9\t-240\tTue Apr 03 18:00:09 +0000 2012\n`).join('')),
  },
  {
    format: 'foursquare-www19',
    text: rows(fc.tuple(id, fc.integer({ min: 0, max: 9 }))).map((rs) => rs.map(([u, v]) => `${u}\tv${v}\tTue Apr 03 18:00:09 +0000 2012\t-240\n`).join('')),
    extra: {
      poi: fc
        .array(fc.tuple(fc.integer({ min: 0, max: 9 }), fc.double({ min: 40.5, max: 40.9, noNaN: true })), { minLength: 1, maxLength: 10 })
        .map((ps) => ps.map(([v, lat]) => `v${v}\t${lat}\t-73.9\tCafe\tUS\n`).join('')),
    },
  },
  {
    format: 'interactions',
    text: rows(fc.tuple(word, word, fc.oneof(rating, fc.constant('"2"')))).map((rs) => 'user,item,value\n' + rs.map((r) => r.join(',') + '\n').join('')),
    flags: ['--user', 'user', '--item', 'item', '--value', 'value', '--combine', 'sum'],
  },
  {
    format: 'interactions',
    text: rows(fc.tuple(word, word)).map((rs) => 'u\ti\n' + rs.map((r) => r.join('\t') + '\n').join('')),
    flags: ['--user', 'u', '--item', 'i', '--delimiter', 'tab'],
  },
];

/** Runs per (case, valid|mutated): 8 cases × (100 + 650) = 6,000 reader cases (with config.test.ts's 4,200: over 10,000). */
const VALID_RUNS = 100;
const MUTATED_RUNS = 650;

async function inspect(c: Case, main: Buffer, poi: Buffer | null, lenient: boolean, k: number) {
  const file = join(dir, `${c.format}-${k}.txt`);
  writeFileSync(file, main);
  const args = ['data', 'inspect', '--format', c.format, file, '--dims', '1', '--json', '--no-cache', '-q', ...(c.flags ?? [])];
  if (poi) {
    const p = join(dir, `${c.format}-${k}.poi`);
    writeFileSync(p, poi);
    args.push('--poi', p);
  }
  if (lenient) args.push('--skip-bad-rows');
  return cli(args);
}

describe('readers: random and mutated files through `lshdp data inspect` (in-process)', () => {
  CASES.forEach((c, k) => {
    it(`${c.format}${c.flags ? ' ' + c.flags.join(' ') : ''}: valid files are read`, async () => {
      await fc.assert(
        fc.asyncProperty(c.text, c.extra ? c.extra.poi : fc.constant(null), async (text, poi) => {
          const r = await inspect(c, Buffer.from(text, 'latin1'), poi === null ? null : Buffer.from(poi), false, k);
          const outcome = expectCleanOutcome(r, { json: true });
          // a generated file is well formed; www19 may have no check-in inside the box, which is an error
          if (c.format !== 'foursquare-www19') expect(outcome, r.err).toBe('ok');
        }),
        { seed: FUZZ_SEED + k, numRuns: runs(VALID_RUNS) },
      );
    });
    it(`${c.format}${c.flags ? ' ' + c.flags.join(' ') : ''}: mutated files give a result or one error line`, async () => {
      await fc.assert(
        fc.asyncProperty(
          c.text,
          fc.array(mutation, { minLength: 1, maxLength: 4 }),
          c.extra ? c.extra.poi : fc.constant(null),
          fc.array(mutation, { maxLength: 2 }),
          fc.boolean(),
          async (text, ms, poi, poiMs, lenient) => {
            const r = await inspect(c, mutate(text, ms), poi === null ? null : mutate(poi, poiMs), lenient, k);
            expectCleanOutcome(r, { json: true });
          },
        ),
        { seed: FUZZ_SEED + 100 + k, numRuns: runs(MUTATED_RUNS) },
      );
    });
  });
});
