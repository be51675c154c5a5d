import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const BIN = join(ROOT, 'bin', 'lshdp');
/** ../shared/data beside the project, where the optional real-data tier looks. */
export const SHARED_DATA = join(ROOT, '..', 'shared', 'data');

/** Run the built CLI (`npm test` builds first) and capture its output. */
export function lshdp(args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv; input?: string; timeout?: number } = {}): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, [BIN, ...args], {
    cwd: opts.cwd ?? ROOT,
    env: { ...process.env, ...opts.env },
    input: opts.input,
    encoding: 'utf8',
    timeout: opts.timeout ?? 300_000,
  });
}

/** A stack trace line, which user errors must never show. */
export const STACK_RE = /\n\s+at .+\(.+:\d+:\d+\)|\n\s+at .+:\d+:\d+/;
