/**
 * A full disk names the file and the option that chose its folder. The CLI runs in a child with
 * tests/helpers/fullDisk.mjs preloaded: writes to the files whose path holds a given string fail
 * with ENOSPC from write(2), which carries no path (what Node gives on a real full disk), after the
 * folder checks passed (a nearly full disk).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, ROOT, STACK_RE } from '../helpers/cli.js';
import { scratch, smallGrid } from '../helpers/experiment.js';
import { startFileServer, type FileServer } from '../helpers/fileServer.js';

const PRELOAD = join(ROOT, 'tests', 'helpers', 'fullDisk.mjs');

/** `lshdp args` in `dir` on a disk that is full for paths containing `full` (a child that does not
 *  block this process, which may be serving its downloads). */
function onFullDisk(dir: string, full: string, args: string[]): Promise<{ status: number | null; stderr: string }> {
  return new Promise((done) => {
    const child = execFile(
      process.execPath,
      ['--import', PRELOAD, BIN, ...args],
      { cwd: dir, encoding: 'utf8', timeout: 120_000, env: { ...process.env, LSHDP_TEST_FULL_DISK: full } },
      (_e, _out, stderr) => done({ status: child.exitCode, stderr }),
    );
  });
}

const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function saysFull(r: { status: number | null; stderr: string }, file: RegExp, flag: string, folder: string): void {
  expect(r.status, r.stderr).toBe(2);
  expect(r.stderr).not.toMatch(STACK_RE);
  const errors = r.stderr.split('\n').filter((l) => l.startsWith('lshdp: error:'));
  expect(errors, r.stderr).toHaveLength(1);
  expect(errors[0]).toMatch(new RegExp(`^lshdp: error: ${file.source}: no space left on the device \\(in the ${flag} folder ${literal(folder)}\\)$`));
}

describe('a full disk: one line naming the file and the option that sets its folder, exit 2', () => {
  const config = smallGrid('full', 3, ['exact', 'lsh'])([1]);

  it('--cache-dir: the vector cache and the generated synthetic data', async () => {
    for (const [full, file] of [
      ['.vec', /cache\/[0-9a-f]{64}\.vec/],
      ['ratings.csv', /cache\/synth\/small-[0-9a-f]{16}\/ratings\.csv/],
    ] as const) {
      const { dir, config: c } = scratch(config);
      const r = await onFullDisk(dir, full, ['run', c, '--out', 'out', '--cache-dir', 'cache', '--threads', '1', '--no-report']);
      saysFull(r, file, '--cache-dir', join(realpathSync(dir), 'cache'));
    }
  });

  it('--out: a cell, and utility.csv; no temporary file left (the resume after a failure: tests/cli/run-kill*)', async () => {
    for (const [full, file] of [
      ['trial_a_', /out\/cells\/trial_a_n30_kappa8_t\d\.json/],
      ['utility.csv', /out\/utility\.csv/],
    ] as const) {
      const { dir, config: c } = scratch(config);
      const args = ['run', c, '--out', 'out', '--cache-dir', 'cache', '--threads', '1', '--no-report'];
      const r = await onFullDisk(dir, full, args);
      saysFull(r, file, '--out', join(realpathSync(dir), 'out'));
      expect(readdirSync(join(dir, 'out', 'cells')).filter((f) => f.startsWith('.lshdp-tmp-'))).toEqual([]);
    }
  });

  it('synth --out: the generated ratings', async () => {
    const { dir } = scratch(config);
    const r = await onFullDisk(dir, 'ratings.csv', ['synth', '--out', 'gen', '--preset', 'small', '-q']);
    saysFull(r, /gen\/ratings\.csv/, '--out', join(realpathSync(dir), 'gen'));
  });

  describe('--data-dir', () => {
    let server: FileServer;
    beforeAll(async () => {
      server = await startFileServer();
      // at the real movielens-100k entry's URL path; any bytes: their first write fails
      server.files.set('/datasets/movielens/ml-100k.zip', { body: Buffer.alloc(4096, 1) });
    });
    afterAll(() => server.close());

    it('a download that fills the disk', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'lshdp-full-'));
      const r = await onFullDisk(dir, '.lshdp-partial/ml-100k.zip', ['data', 'fetch', 'movielens-100k', '--data-dir', 'data', '--mirror', server.base, '-q']);
      saysFull(r, /data\/\.lshdp-partial\/ml-100k\.zip/, '--data-dir', join(realpathSync(dir), 'data'));
    });
  });
});
