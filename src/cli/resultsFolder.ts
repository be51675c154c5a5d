/** What the CLI needs to know about a results folder before handing it to a command. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../util/errors.js';

interface ManifestHead {
  config?: { name?: unknown };
  shard?: { index?: unknown; count?: unknown } | null;
}

/** The folder's manifest.json, or null when it is absent or unreadable (the command then says why). */
function manifestHead(dir: string): ManifestHead | null {
  try {
    const m = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as unknown;
    return m !== null && typeof m === 'object' ? (m as ManifestHead) : null;
  } catch {
    return null;
  }
}

/**
 * A shard folder (`lshdp run --shard i/N`) holds results but no CSVs, figures or report: commands
 * that read those (plot, report, table utility) point to `lshdp merge` instead of a missing file.
 */
export function refuseShardFolder(dir: string): void {
  const shard = manifestHead(dir)?.shard;
  if (shard && typeof shard === 'object' && typeof shard.index === 'number' && typeof shard.count === 'number') {
    throw new UserError(`${dir}: a shard folder (shard ${shard.index}/${shard.count}); run lshdp merge on the ${shard.count} shard folders first, then use the merged folder`);
  }
}

/** `lshdp merge`'s default output: results/<config name>, the name read from the first shard's manifest. */
export function defaultMergeOut(dirs: readonly string[]): string | null {
  const name = dirs.length > 0 ? manifestHead(dirs[0]!)?.config?.name : undefined;
  return typeof name === 'string' && /^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name) ? join('results', name) : null;
}
