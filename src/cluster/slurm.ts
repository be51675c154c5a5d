/**
 * `lshdp cluster slurm`: plain sbatch scripts a user can read, edit and submit, for a sharded run
 * on Slurm: an array of N tasks (`lshdp run … --shard auto --shards N`, each into
 * DIR/shards/<i>of<N>/) and a merge job (`lshdp merge` of the shards into DIR, the report
 * included). Slurm schedules; lshdp computes its shares and merges. With `submit`, the merge
 * waits on the array (`--dependency=afterok`, `--kill-on-invalid-dep=yes`); with `wait`, lshdp
 * polls `squeue` (no accounting database is assumed) until both jobs are gone.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomicSync } from '../util/atomic.js';
import { UserError } from '../util/errors.js';

export interface SlurmPlan {
  /** absolute paths: compute nodes may have another working directory and PATH */
  config: string;
  out: string;
  name: string;
  shards: number;
  node: string;
  lshdp: string;
  partition?: string;
  time?: string;
  cpusPerTask?: number;
  mem?: string;
  /** extra `#SBATCH` lines, as given (e.g. --account=abc) */
  sbatchArgs: string[];
}

/** The folders of the layout: scripts and logs in DIR/cluster, shards in DIR/shards. */
export function clusterPaths(out: string) {
  return { scripts: join(out, 'cluster'), logs: join(out, 'cluster', 'logs'), shards: join(out, 'shards'), record: join(out, 'cluster.json') };
}

const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

function directives(plan: SlurmPlan, extra: string[]): string[] {
  return [...extra, ...(plan.partition ? [`--partition=${plan.partition}`] : []), ...(plan.time ? [`--time=${plan.time}`] : []), ...(plan.mem ? [`--mem=${plan.mem}`] : []), ...plan.sbatchArgs].map(
    (d) => `#SBATCH ${d}`,
  );
}

export function arraySbatch(plan: SlurmPlan): string {
  const p = clusterPaths(plan.out);
  return [
    '#!/bin/bash',
    `# lshdp: shard i of ${plan.shards} of ${plan.config}, one array task per shard (i = array index + 1).`,
    '# Resubmit one task alone with: sbatch --array=INDEX THIS_FILE (it computes only its own share).',
    ...directives(plan, [`--job-name=lshdp-${plan.name}`, `--array=0-${plan.shards - 1}`, `--output=${p.logs}/shard-%a.out`, `--cpus-per-task=${plan.cpusPerTask ?? 1}`]),
    'set -euo pipefail',
    'i=$((SLURM_ARRAY_TASK_ID + 1))',
    `exec ${q(plan.node)} ${q(plan.lshdp)} run ${q(plan.config)} --shard auto --shards ${plan.shards} --out ${q(p.shards)}/"$i"of${plan.shards} --threads "\${SLURM_CPUS_PER_TASK:-1}" --no-report -q`,
    '',
  ].join('\n');
}

export function mergeSbatch(plan: SlurmPlan): string {
  const p = clusterPaths(plan.out);
  const shards = Array.from({ length: plan.shards }, (_, i) => `${q(p.shards)}/${i + 1}of${plan.shards}`).join(' ');
  return [
    '#!/bin/bash',
    `# lshdp: merge the ${plan.shards} shards into ${plan.out} (CSVs, claims, figures and the report).`,
    ...directives(plan, [`--job-name=lshdp-${plan.name}-merge`, `--output=${p.logs}/merge.out`, '--cpus-per-task=1']),
    'set -euo pipefail',
    `exec ${q(plan.node)} ${q(plan.lshdp)} merge ${shards} --out ${q(plan.out)} -q`,
    '',
  ].join('\n');
}

export interface ClusterRecord {
  engine: 'slurm' | 'kubernetes';
  shards: number;
  config: string;
  out: string;
  scripts: string[];
  jobs?: { array: string; merge: string };
  /** when the jobs were submitted (ms since the epoch) */
  submitted?: number;
}

/** Write the scripts and DIR/cluster.json; returns their paths. */
export function writeSlurmScripts(plan: SlurmPlan): ClusterRecord {
  const p = clusterPaths(plan.out);
  mkdirSync(p.logs, { recursive: true });
  const array = join(p.scripts, 'array.sbatch');
  const merge = join(p.scripts, 'merge.sbatch');
  writeFileAtomicSync(array, arraySbatch(plan));
  writeFileAtomicSync(merge, mergeSbatch(plan));
  const record: ClusterRecord = { engine: 'slurm', shards: plan.shards, config: plan.config, out: plan.out, scripts: [array, merge] };
  writeFileAtomicSync(p.record, JSON.stringify(record, null, 2) + '\n');
  return record;
}

/** `sbatch --parsable ARGS`: the job id, or a one-line error with sbatch's own message. */
function sbatch(args: string[]): string {
  const r = spawnSync('sbatch', ['--parsable', ...args], { encoding: 'utf8' });
  if (r.error) throw new UserError(`sbatch: ${(r.error as NodeJS.ErrnoException).code === 'ENOENT' ? 'not found on PATH (is this a Slurm login node?)' : r.error.message}`);
  if (r.status !== 0) throw new UserError(`sbatch refused the job: ${(r.stderr || r.stdout).trim().split('\n').join(' ')}`);
  return r.stdout.trim().split(';')[0]!;
}

/** Submit the array, then the merge after it; records the job ids in cluster.json. */
export function submitSlurm(record: ClusterRecord): ClusterRecord {
  const [array, merge] = record.scripts as [string, string];
  const arrayId = sbatch([array]);
  const mergeId = sbatch([`--dependency=afterok:${arrayId}`, '--kill-on-invalid-dep=yes', merge]);
  const done = { ...record, jobs: { array: arrayId, merge: mergeId }, submitted: Date.now() };
  writeFileAtomicSync(clusterPaths(record.out).record, JSON.stringify(done, null, 2) + '\n');
  return done;
}

/** The jobs still known to squeue (pending or running), of the given ids. */
function queued(ids: string[]): string[] {
  const r = spawnSync('squeue', ['-h', '-o', '%i %T', '-j', ids.join(',')], { encoding: 'utf8' });
  if (r.error) throw new UserError(`squeue: ${r.error.message}`);
  // squeue exits 1 once every id has left the queue ("Invalid job id specified")
  return r.status === 0
    ? r.stdout
        .trim()
        .split('\n')
        .filter((l) => l.trim() !== '')
    : [];
}

/** Wait until the merge job has ended (or was killed with the array); true when DIR holds the merged results. */
export async function waitSlurm(record: ClusterRecord, opts: { pollMs?: number; log?: (line: string) => void } = {}): Promise<boolean> {
  const ids = [record.jobs!.array, record.jobs!.merge];
  for (;;) {
    if (queued(ids).length === 0) break;
    await new Promise((ok) => setTimeout(ok, opts.pollMs ?? 2000));
  }
  // merged by these jobs, not left by an earlier run
  const utility = join(record.out, 'utility.csv');
  return existsSync(utility) && existsSync(join(record.out, 'manifest.json')) && statSync(utility).mtimeMs >= (record.submitted ?? 0);
}
