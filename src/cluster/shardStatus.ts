/**
 * `lshdp status DIR` on a folder of `lshdp cluster`: which shards are complete (their manifest
 * is written last), incomplete (cells stored, no manifest: killed, cancelled or still running) or
 * missing, and the commands that resubmit the rest and merge again.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ClusterRecord } from './slurm.js';

export interface ShardState {
  shard: number;
  /** the engine's index of the task: shard − 1 */
  index: number;
  state: 'complete' | 'incomplete' | 'missing';
  cells: number;
}

export interface ClusterStatus {
  record: ClusterRecord;
  shards: ShardState[];
  lines: string[];
}

export function clusterStatus(dir: string): ClusterStatus | null {
  const file = join(dir, 'cluster.json');
  if (!existsSync(file)) return null;
  const record = JSON.parse(readFileSync(file, 'utf8')) as ClusterRecord;
  const shards: ShardState[] = Array.from({ length: record.shards }, (_, i) => {
    const folder = join(dir, 'shards', `${i + 1}of${record.shards}`);
    const cellsDir = join(folder, 'cells');
    const cells = existsSync(cellsDir) ? readdirSync(cellsDir).filter((f) => f.endsWith('.json') && !f.startsWith('.')).length : 0;
    const state = existsSync(join(folder, 'manifest.json')) ? 'complete' : existsSync(folder) ? 'incomplete' : 'missing';
    return { shard: i + 1, index: i, state, cells };
  });
  const of = (s: ShardState['state']) => shards.filter((x) => x.state === s);
  const list = (xs: ShardState[]) => xs.map((x) => `${x.shard} (index ${x.index}${x.state === 'incomplete' ? `, ${x.cells} cells stored` : ''})`).join(', ');
  const jobs = record.jobs ? ` (array job ${record.jobs.array}, merge job ${record.jobs.merge})` : '';
  const lines = [`cluster: ${record.engine}, ${record.shards} shards${jobs}`];
  const rest = shards.filter((x) => x.state !== 'complete');
  lines.push(
    `shards: ${of('complete').length} of ${record.shards} complete${of('incomplete').length ? `; incomplete: ${list(of('incomplete'))}` : ''}${of('missing').length ? `; missing: ${list(of('missing'))}` : ''}`,
  );
  const merged = existsSync(join(dir, 'utility.csv'));
  if (record.engine === 'slurm') {
    const [array, merge] = record.scripts;
    if (rest.length > 0) {
      lines.push(
        `resubmit them (still running ones excepted: squeue), then merge: jid=$(sbatch --parsable --array=${rest.map((x) => x.index).join(',')} ${array}) && sbatch --dependency=afterok:$jid --kill-on-invalid-dep=yes ${merge}`,
      );
    } else if (!merged) lines.push(`every shard is complete; merge: sbatch ${merge}`);
  } else if (rest.length > 0) {
    lines.push(`rerun the Indexed Job for completion indices ${rest.map((x) => x.index).join(',')} (stored cells are reused), then apply the merge Job`);
  }
  if (merged) lines.push(`merged: ${join(dir, 'utility.csv')}`);
  return { record, shards, lines };
}
