import { describe, it, expect } from 'vitest';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { UserError } from '../../src/util/errors.js';
import { checkResultsFolder, checkWritableFolder, makeFolderSync, prepareResultsFolder } from '../../src/machinery/outdir.js';
import { ROOT } from '../helpers/cli.js';

const scratch = () => mkdtempSync(join(tmpdir(), 'lshdp-outdir-'));
const owner = { name: 'cfg', config_hash: 'a'.repeat(64) };
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const hasProc = existsSync('/proc/self/stat');

/** The message of the UserError `fn` throws (fails the test when it throws anything else). */
function userErrorOf(fn: () => void): string {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(UserError);
    expect((e as Error).message).not.toContain('\n');
    return (e as Error).message;
  }
  throw new Error('expected a UserError, nothing was thrown');
}

describe('checkWritableFolder', () => {
  it('accepts a missing nested folder and leaves nothing behind', () => {
    const dir = scratch();
    checkWritableFolder(join(dir, 'a', 'b', 'c'), '--out');
    expect(readdirSync(dir)).toEqual([]);
    // an existing folder: the probe file is removed again
    mkdirSync(join(dir, 'x'));
    writeFileSync(join(dir, 'x', 'keep.txt'), 'k');
    checkWritableFolder(join(dir, 'x'), '--cache-dir');
    expect(readdirSync(join(dir, 'x'))).toEqual(['keep.txt']);
  });

  it('refuses a file in the way, as the folder or as a parent, naming the flag', () => {
    const dir = scratch();
    writeFileSync(join(dir, 'f'), 'x');
    expect(userErrorOf(() => checkWritableFolder(join(dir, 'f'), '--out'))).toBe(`--out ${join(dir, 'f')}: it is a file, not a folder`);
    expect(userErrorOf(() => checkWritableFolder(join(dir, 'f', 'sub', 'deeper'), '--cache-dir'))).toBe(`--cache-dir ${join(dir, 'f', 'sub', 'deeper')}: ${join(dir, 'f')} is a file, not a folder`);
  });

  it('refuses a path below a broken symbolic link (where a recursive mkdir would loop)', () => {
    const dir = scratch();
    symlinkSync(join(dir, 'gone'), join(dir, 'link'));
    expect(userErrorOf(() => checkWritableFolder(join(dir, 'link', 'out'), '--out'))).toBe(`--out ${join(dir, 'link', 'out')}: ${join(dir, 'link')} is a broken symbolic link`);
    expect(existsSync(join(dir, 'gone'))).toBe(false);
  });

  it.skipIf(!hasProc)('refuses /proc at once: a new folder, a nested one and /proc itself', () => {
    expect(userErrorOf(() => checkWritableFolder('/proc/lshdp-test', '--out'))).toBe('--out /proc/lshdp-test: cannot create the folder: /proc does not accept new files or folders');
    expect(userErrorOf(() => checkWritableFolder('/proc/lshdp-test/a/b', '--out'))).toBe('--out /proc/lshdp-test/a/b: cannot create the folder: /proc does not accept new files or folders');
    expect(userErrorOf(() => checkWritableFolder('/proc', '--cache-dir'))).toMatch(/^--cache-dir \/proc: cannot write there: /);
  });

  it('refuses a read-only folder and a missing folder below one', () => {
    const dir = scratch();
    chmodSync(dir, 0o755);
    const ro = join(dir, 'ro');
    mkdirSync(ro);
    chmodSync(ro, 0o555);
    const expected = [`--out ${ro}: cannot write there: no write permission in ${ro}`, `--out ${join(ro, 'new')}: cannot create the folder: no write permission in ${ro}`];
    if (!isRoot) {
      expect([userErrorOf(() => checkWritableFolder(ro, '--out')), userErrorOf(() => checkWritableFolder(join(ro, 'new'), '--out'))]).toEqual(expected);
      return;
    }
    // root may write anywhere: check as the unprivileged user "nobody" in a child process
    const script = `import('./dist/machinery/outdir.js').then((m) => { for (const p of process.argv.slice(1)) { try { m.checkWritableFolder(p, '--out'); console.log('accepted ' + p); } catch (e) { console.log(e.message); } } })`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script, ro, join(ro, 'new')], { cwd: ROOT, encoding: 'utf8', timeout: 20_000, uid: 65534, gid: 65534 });
    expect(r.stderr).toBe('');
    expect(r.stdout.trimEnd().split('\n')).toEqual(expected);
  });

  it.skipIf(!hasProc)('returns within seconds in a separate process for /proc (a regression would spin forever)', () => {
    // run the built module in a child so that a regression (Node's recursive mkdir looping on
    // procfs) fails this test through the timeout instead of hanging the test worker
    const script = `import('./dist/machinery/outdir.js').then((m) => { try { m.checkWritableFolder('/proc/lshdp-test/x', '--out'); } catch (e) { console.log(e.message); } })`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8', timeout: 20_000 });
    expect(r.signal).toBeNull();
    expect(r.stdout.trim()).toBe('--out /proc/lshdp-test/x: cannot create the folder: /proc does not accept new files or folders');
  });
});

describe('makeFolderSync', () => {
  it('creates the missing folders one level at a time and lists them outermost first', () => {
    const dir = scratch();
    expect(makeFolderSync(join(dir, 'a', 'b'), '--out')).toEqual([join(dir, 'a'), join(dir, 'a', 'b')]);
    expect(makeFolderSync(join(dir, 'a', 'b'), '--out')).toEqual([]);
  });
});

describe('checkResultsFolder', () => {
  it('accepts a new folder without creating it, and its own folder again', () => {
    const dir = scratch();
    const out = join(dir, 'results', 'cfg');
    checkResultsFolder(out, owner, {});
    expect(existsSync(join(dir, 'results'))).toBe(false);
    prepareResultsFolder(out, owner, {});
    checkResultsFolder(out, owner, {});
  });

  it('refuses another config, a foreign non-empty folder, and an unwritable path', () => {
    const dir = scratch();
    const out = join(dir, 'r');
    prepareResultsFolder(out, owner, {});
    const other = { name: 'other', config_hash: 'b'.repeat(64) };
    expect(userErrorOf(() => checkResultsFolder(out, other, {}))).toMatch(new RegExp(`^${out}: |^${out} `));
    checkResultsFolder(out, other, { force: true });
    const foreign = join(dir, 'foreign');
    mkdirSync(foreign);
    writeFileSync(join(foreign, 'notes.txt'), 'x');
    expect(userErrorOf(() => checkResultsFolder(foreign, owner, {}))).toBe(`${foreign} is not empty and is not an lshdp results folder; use --out DIR or --force`);
    writeFileSync(join(dir, 'file'), 'x');
    expect(userErrorOf(() => checkResultsFolder(join(dir, 'file', 'r'), owner, { flag: '--out' }))).toBe(`--out ${join(dir, 'file', 'r')}: ${join(dir, 'file')} is a file, not a folder`);
  });

  it.skipIf(!hasProc)('refuses /proc/foo (the reported spin) with one line', () => {
    expect(userErrorOf(() => checkResultsFolder('/proc/foo', owner, {}))).toBe('--out /proc/foo: cannot create the folder: /proc does not accept new files or folders');
  });
});

describe('prepareResultsFolder', () => {
  it('with --force removes every evaluation output of the run before (attack, infer, recommend), and keeps files it does not own', () => {
    const dir = scratch();
    const out = join(dir, 'r');
    prepareResultsFolder(out, owner, {});
    const written = ['utility.csv', 'attack.csv', 'infer.csv', 'recommend.csv', 'notes.txt'];
    for (const f of written) writeFileSync(join(out, f), 'x');
    for (const d of ['cells', 'attack', 'infer']) {
      mkdirSync(join(out, d));
      writeFileSync(join(out, d, 'k.json'), '{}');
    }
    // without --force the same config's folder is resumed: nothing goes
    prepareResultsFolder(out, owner, {});
    expect(readdirSync(out).sort()).toEqual(['attack', 'attack.csv', 'cells', 'infer', 'infer.csv', 'lshdp-results.json', 'notes.txt', 'recommend.csv', 'utility.csv']);
    prepareResultsFolder(out, owner, { force: true });
    expect(readdirSync(out).sort()).toEqual(['lshdp-results.json', 'notes.txt']);
  });
});
