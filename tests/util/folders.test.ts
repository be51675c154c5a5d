/**
 * makeFolderSync when another process removes a parent it made between this process's steps (as
 * Slurm array tasks writing shards/1of3, shards/2of3 … at once do: a task's checkWritableFolder
 * takes away the parents it made, still empty): the walk starts again and the folder is made. A
 * parent that stays while mkdir answers ENOENT (procfs) is still one error, at once.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, rmdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { makeFolderSync } from '../../src/util/folders.js';

describe('makeFolderSync with a parent removed under it', () => {
  it('makes the folder when another process removed the parent between the parent and the child', () => {
    const root = mkdtempSync(join(tmpdir(), 'lshdp-folders-'));
    const child = join(root, 'shards', '2of3');
    let removed = 0;
    const calls: string[] = [];
    // the first time the child is made, its parent (made a moment ago) is gone: another task removed it
    const racing = (p: string) => {
      calls.push(p);
      if (p === child && removed === 0) {
        rmdirSync(dirname(p));
        removed++;
      }
      mkdirSync(p);
    };
    const created = makeFolderSync(child, '--out', racing);
    expect(statSync(child).isDirectory()).toBe(true);
    expect(created).toEqual([join(root, 'shards'), child]);
    // the walk ran twice: parent, child (ENOENT), then parent, child again
    expect(calls).toEqual([join(root, 'shards'), child, join(root, 'shards'), child]);
  });

  it('a parent that stays while mkdir answers ENOENT is one error, without retrying', () => {
    const root = mkdtempSync(join(tmpdir(), 'lshdp-folders-'));
    let calls = 0;
    const procfs = (p: string) => {
      calls++;
      throw Object.assign(new Error(`ENOENT: no such file or directory, mkdir '${p}'`), { code: 'ENOENT' });
    };
    expect(() => makeFolderSync(join(root, 'x'), '--out', procfs)).toThrow(/--out .*: cannot create the folder: .* does not accept new files or folders/);
    expect(calls).toBe(1);
    expect(existsSync(join(root, 'x'))).toBe(false);
  });

  it('gives up after three walks when the parent keeps vanishing, with the one-line error', () => {
    const root = mkdtempSync(join(tmpdir(), 'lshdp-folders-'));
    const child = join(root, 'a', 'b');
    let walks = 0;
    const always = (p: string) => {
      if (p === child) {
        walks++;
        rmdirSync(dirname(p));
      }
      mkdirSync(p);
    };
    expect(() => makeFolderSync(child, '--out', always)).toThrow(/^--out .*: cannot create the folder/);
    expect(walks).toBe(3);
  });
});
