import { createRequire } from 'node:module';
import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readGitHead } from '../util/gitHead.js';

const require = createRequire(import.meta.url);
const PACKAGE_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export const LSHDP_VERSION: string = (require('../../package.json') as { version: string }).version;

/**
 * Version of the algorithms that produce cell numbers. It enters every cell hash, so stored cells
 * of an older lshdp are recomputed rather than mixed with new ones. Bump the suffix when a change
 * alters numbers without a package version bump.
 */
// algo2: rounding residue of the centring shift counts as zero (src/data/vectors.ts)
// algo3: Hamming k-NN tie-breaking by keyed hash of (trial tie seed, query, candidate) (src/lsh/tieKey.ts);
// RR flips with 0.35 < p < 1/2 drawn as fair bits masked by geometric keeps (same law, other draws)
export const ALGORITHM_VERSION = `${LSHDP_VERSION}+algo3`;

let commit: Promise<string | null> | undefined;

/**
 * The git commit of this lshdp checkout (as `git rev-parse HEAD` in it prints it), or null when it
 * is not a git checkout. Read from the repository's files where they answer for certain
 * (src/util/gitHead.ts: starting git costs the main thread ~6 ms), else asked of git once per
 * process, without blocking: a run asks at its start and reads the answer for its manifest at its
 * end (a blocking `git rev-parse` cost ~50 ms of every run).
 */
export function gitCommit(): Promise<string | null> {
  commit ??= new Promise((resolve) => {
    try {
      const read = readGitHead(PACKAGE_ROOT);
      if (read !== undefined) return resolve(read);
    } catch {
      // a file that cannot be read: git decides
    }
    try {
      execFile('git', ['rev-parse', 'HEAD'], { cwd: PACKAGE_ROOT, timeout: 5000 }, (err, out) => resolve(err ? null : out.toString().trim() || null));
    } catch {
      resolve(null);
    }
  });
  return commit;
}
