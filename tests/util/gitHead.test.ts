import { describe, it, expect } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readGitHead } from '../../src/util/gitHead.js';

const HAS_GIT = spawnSync('git', ['--version']).status === 0;
/** git's environment without variables that steer it (a test run inside a git hook has GIT_DIR) */
const ENV = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('GIT_')));

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.org', '-c', 'init.defaultBranch=main', ...args], { cwd, env: ENV, stdio: ['ignore', 'pipe', 'ignore'] })
    .toString()
    .trim();
/** What a run's manifest recorded before: `git rev-parse HEAD` in the folder, null when it fails. */
const revParse = (cwd: string): string | null => {
  const r = spawnSync('git', ['rev-parse', 'HEAD'], { cwd, env: ENV });
  return r.status === 0 ? r.stdout.toString().trim() || null : null;
};

describe.skipIf(!HAS_GIT)('readGitHead', () => {
  it('answers what git rev-parse HEAD answers: a branch loose or packed, detached, a worktree, a subfolder, a symlinked path, an unborn branch', () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'lshdp-git-')));
    const repo = join(root, 'repo');
    mkdirSync(join(repo, 'sub', 'deeper'), { recursive: true });
    git(repo, 'init', '-q');
    // an unborn branch: git fails, so null
    expect(revParse(repo)).toBe(null);
    expect(readGitHead(repo, ENV)).toBe(null);
    git(repo, 'commit', '-q', '--allow-empty', '-m', 'one');
    const first = git(repo, 'rev-parse', 'HEAD');
    const check = (dir: string) => {
      const expected = revParse(dir);
      expect(expected).toMatch(/^[0-9a-f]{40}$/);
      expect(readGitHead(dir, ENV)).toBe(expected);
    };
    check(repo); // loose ref
    check(join(repo, 'sub', 'deeper'));
    git(repo, 'commit', '-q', '--allow-empty', '-m', 'two');
    git(repo, 'pack-refs', '--all');
    check(repo); // packed
    git(repo, 'commit', '-q', '--allow-empty', '-m', 'three');
    check(repo); // loose again, over the packed one
    git(repo, 'checkout', '-q', '--detach', first);
    check(repo);
    expect(readGitHead(repo, ENV)).toBe(first);
    git(repo, 'checkout', '-q', 'main');
    const wt = join(root, 'wt');
    git(repo, 'worktree', 'add', '-q', '-b', 'side', wt);
    git(wt, 'commit', '-q', '--allow-empty', '-m', 'side');
    check(wt); // a .git file, HEAD in the worktree's folder, the branch in the shared refs
    expect(readGitHead(wt, ENV)).not.toBe(readGitHead(repo, ENV));
    symlinkSync(join(repo, 'sub'), join(root, 'link'));
    check(join(root, 'link', 'deeper'));
    // a repository whose folder is elsewhere (git init --separate-git-dir, as submodules have)
    const sep = join(root, 'sep');
    mkdirSync(sep);
    git(sep, 'init', '-q', '--separate-git-dir', join(root, 'sep.git'));
    git(sep, 'commit', '-q', '--allow-empty', '-m', 'sep');
    check(sep);
  });

  it('no repository up to the root: null; whatever git alone decides: undefined (then git is asked)', () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'lshdp-git-')));
    if (revParse(root) === null) expect(readGitHead(root, ENV)).toBe(null);
    const repo = join(root, 'repo');
    mkdirSync(repo);
    git(repo, 'init', '-q');
    git(repo, 'commit', '-q', '--allow-empty', '-m', 'one');
    // variables that move git elsewhere
    expect(readGitHead(repo, { ...ENV, GIT_DIR: join(root, 'other') })).toBeUndefined();
    expect(readGitHead(repo, { ...ENV, GIT_CONFIG_COUNT: '1' })).toBeUndefined();
    // …but not one that only concerns transport
    expect(readGitHead(repo, { ...ENV, GIT_SSL_CAINFO: '/nowhere' })).toBe(revParse(repo));
    // no git on PATH: the process would fail, so null
    expect(readGitHead(repo, { ...ENV, PATH: root })).toBe(null);
    // an extension (reftable, sha256 objects…) in the config
    writeFileSync(join(repo, '.git', 'config'), '[core]\n\trepositoryformatversion = 1\n[extensions]\n\trefStorage = reftable\n');
    expect(readGitHead(repo, ENV)).toBeUndefined();
    // a .git that is no repository's folder
    const odd = join(root, 'odd');
    mkdirSync(join(odd, '.git'), { recursive: true });
    expect(readGitHead(odd, ENV)).toBeUndefined();
    const broken = join(root, 'broken');
    mkdirSync(broken);
    writeFileSync(join(broken, '.git'), 'not a gitdir line\n');
    expect(readGitHead(broken, ENV)).toBeUndefined();
  });
});
