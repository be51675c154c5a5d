/**
 * The commit `git rev-parse HEAD` prints when run in a folder, read from the repository's own
 * files: starting a `git` process costs a run's main thread about 6 ms (and 8 CPU-ms; Node forks
 * its whole process) at its start, where the workers start on the same cores.
 *
 * It answers only where git's answer is certain from the files: found the way git finds its
 * repository (the folder's real path, then each parent; a `.git` folder, or a `.git` file naming
 * the folder, as worktrees and submodules have), HEAD a commit or a branch, the branch's commit in
 * its loose file or in packed-refs. Anything else — a GIT_* variable that could change which
 * repository or config git reads (GIT_DIR, GIT_CONFIG_*, …; not GIT_SSL_CAINFO and the like), a
 * reftable repository, a folder owned by another user (git refuses those), another file system on
 * the way up, a folder that might itself be a bare repository, a ref it cannot read — answers
 * `undefined`: then ask git. No repository up to the root, or no git on PATH: null, as git's
 * failure is.
 */
import { accessSync, constants, readFileSync, realpathSync, statSync, type Stats } from 'node:fs';
import { delimiter, dirname, isAbsolute, join, resolve } from 'node:path';

const HASH = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
/** Refs each worktree keeps in its own folder; every other ref is the repository's. */
const PER_WORKTREE = /^refs\/(?:bisect|worktree|rewritten)\//;

/** GIT_* variables that leave the repository, its refs and its config as they are (any other: ask git). */
const HARMLESS_ENV =
  /^GIT_(?:SSL_\w+|SSH\w*|ASKPASS|TERMINAL_PROMPT|EDITOR|SEQUENCE_EDITOR|PAGER|(?:AUTHOR|COMMITTER)_(?:NAME|EMAIL|DATE)|HTTP_\w+|PROXY_\w+|TRACE\w*|MERGE_VERBOSITY|FLUSH|PROTOCOL_FROM_USER|ALLOW_PROTOCOL)$/;

const statOf = (p: string): Stats | undefined => statSync(p, { throwIfNoEntry: false });
const isDir = (p: string): boolean => statOf(p)?.isDirectory() === true;
const textOf = (p: string): string | undefined => (statOf(p)?.isFile() ? readFileSync(p, 'utf8') : undefined);

/** HEAD's commit as `git rev-parse HEAD` in `start` prints it; null where git fails; undefined: ask git. */
export function readGitHead(start: string, env: NodeJS.ProcessEnv = process.env): string | null | undefined {
  if (Object.keys(env).some((k) => k.startsWith('GIT_') && !HARMLESS_ENV.test(k))) return undefined;
  const uid = process.geteuid?.();
  if (uid === undefined) return undefined;
  let dir = realpathSync(start);
  const dev = statOf(dir)?.dev;
  for (;;) {
    const dotGit = join(dir, '.git');
    const st = statOf(dotGit);
    if (st) {
      const gitDir = st.isDirectory() ? dotGit : st.isFile() ? gitFileTarget(dotGit) : undefined;
      if (gitDir === undefined) return undefined;
      // git refuses a repository another user owns (its answer would be an error)
      if ([dir, dotGit, gitDir].some((p) => statOf(p)?.uid !== uid)) return undefined;
      if (!gitOnPath(env)) return null;
      return headOf(gitDir);
    }
    // a folder that is itself a repository's folder (bare): git's own checks decide
    if (statOf(join(dir, 'HEAD')) || isDir(join(dir, 'objects'))) return undefined;
    const parent = dirname(dir);
    if (parent === dir) return null;
    if (statOf(parent)?.dev !== dev) return undefined;
    dir = parent;
  }
}

/** The folder a `.git` file names ("gitdir: <path>", relative to the file's folder). */
function gitFileTarget(file: string): string | undefined {
  const m = /^gitdir: (.+)$/.exec(readFileSync(file, 'utf8').trim());
  if (!m) return undefined;
  const target = isAbsolute(m[1]!) ? m[1]! : resolve(dirname(file), m[1]!);
  return isDir(target) ? target : undefined;
}

/** Whether PATH holds an executable `git`, as the process git would be started from. */
function gitOnPath(env: NodeJS.ProcessEnv): boolean {
  for (const d of (env.PATH ?? '').split(delimiter)) {
    if (!d) continue;
    try {
      const p = join(d, 'git');
      if (!statOf(p)?.isFile()) continue;
      accessSync(p, constants.X_OK);
      return true;
    } catch {
      // not executable here: the next folder
    }
  }
  return false;
}

/** HEAD's commit in the repository folder `gitDir` (a worktree's: its own HEAD, the shared refs). */
function headOf(gitDir: string): string | null | undefined {
  const common = textOf(join(gitDir, 'commondir'));
  const commonDir = common === undefined ? gitDir : resolve(gitDir, common.trim());
  if (!statOf(join(gitDir, 'HEAD'))?.isFile() || !isDir(join(commonDir, 'objects')) || !isDir(join(commonDir, 'refs'))) return undefined;
  // refs in a reftable, or any extension git would read first: ask git
  if (/^\s*\[extensions\]/im.test(textOf(join(commonDir, 'config')) ?? '')) return undefined;
  let value: string | null | undefined = textOf(join(gitDir, 'HEAD'))?.trim();
  for (let depth = 0; depth < 5 && typeof value === 'string'; depth++) {
    if (HASH.test(value)) return value;
    const m = /^ref: (refs\/\S+)$/.exec(value);
    if (!m) return undefined;
    const name = m[1]!;
    const loose = join(PER_WORKTREE.test(name) ? gitDir : commonDir, name);
    const st = statOf(loose);
    if (st && !st.isFile()) return undefined;
    value = st ? readFileSync(loose, 'utf8').trim() : packedRef(commonDir, name);
  }
  // null: a branch with no commit yet, where git rev-parse HEAD fails
  return value === null ? null : undefined;
}

/** The commit packed-refs gives `name`; null when it has none. */
function packedRef(commonDir: string, name: string): string | null {
  for (const line of (textOf(join(commonDir, 'packed-refs')) ?? '').split('\n')) {
    if (line.startsWith('#') || line.startsWith('^')) continue;
    const space = line.indexOf(' ');
    if (space > 0 && line.slice(space + 1).trimEnd() === name) return line.slice(0, space);
  }
  return null;
}
