import { createRequire } from 'node:module';
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

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

/** The git commit of this lshdp checkout, or null when it is not a git checkout. */
export function gitCommit(): string | null {
  try {
    const out = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: PACKAGE_ROOT, stdio: ['ignore', 'pipe', 'ignore'], timeout: 5000 });
    return out.toString().trim() || null;
  } catch {
    return null;
  }
}
