/**
 * No source file in src/claims/ or src/report/ is longer than 400 lines (issue 40: a file that
 * holds several concerns is split by concern, under names that say what each holds). Exceptions,
 * by path, are listed in ALLOWED with the reason.
 */
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './helpers/cli.js';

const LIMIT = 400;
const FOLDERS = ['src/claims', 'src/report'];
const ALLOWED = new Map<string, string>([['src/report/read.ts', 'the reader of a results folder, being rewritten to read the list of evaluations']]);

/** `path (n lines)` of every .ts file of `folder` over `limit` lines, outside ALLOWED. */
function longFiles(folder: string, limit: number): string[] {
  return readdirSync(join(ROOT, folder))
    .filter((f) => f.endsWith('.ts'))
    .map((f) => `${folder}/${f}`)
    .filter((p) => !ALLOWED.has(p))
    .flatMap((p) => {
      const lines = readFileSync(join(ROOT, p), 'utf8').split('\n').length - 1;
      return lines > limit ? [`${p} (${lines} lines)`] : [];
    });
}

describe('file length', () => {
  it.each(FOLDERS)('no file in %s is over 400 lines', (folder) => {
    expect(longFiles(folder, LIMIT)).toEqual([]);
  });

  it('finds a file over the limit (the check can fail)', () => {
    expect(longFiles('src/claims', 50).length).toBeGreaterThan(0);
  });
});
