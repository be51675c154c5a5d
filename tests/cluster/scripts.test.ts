import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { arraySbatch, mergeSbatch } from '../../src/cluster/slurm.js';
import { indexedJob, mergeJob } from '../../src/cluster/k8s.js';
import { lshdpIn } from '../helpers/inproc.js';
import { CLI_CONFIG } from '../helpers/experiment.js';

const PLAN = {
  config: '/p/c.yaml',
  out: '/r/D',
  name: 'c',
  shards: 3,
  node: '/usr/bin/node',
  lshdp: '/opt/lshdp/bin/lshdp',
  partition: 'short',
  time: '01:00:00',
  cpusPerTask: 4,
  mem: '8G',
  sbatchArgs: ['--account=abc'],
};

describe('lshdp cluster: the scripts', () => {
  it('array.sbatch: one task per shard, --shard auto into DIR/shards/<i>of<N>, node and lshdp by absolute path, threads from SLURM_CPUS_PER_TASK', () => {
    const s = arraySbatch(PLAN);
    for (const line of [
      '#SBATCH --array=0-2',
      '#SBATCH --partition=short',
      '#SBATCH --time=01:00:00',
      '#SBATCH --cpus-per-task=4',
      '#SBATCH --mem=8G',
      '#SBATCH --account=abc',
      '#SBATCH --output=/r/D/cluster/logs/shard-%a.out',
    ])
      expect(s).toContain(line);
    expect(s).toContain(`exec '/usr/bin/node' '/opt/lshdp/bin/lshdp' run '/p/c.yaml' --shard auto --shards 3 --out '/r/D/shards'/"$i"of3 --threads "\${SLURM_CPUS_PER_TASK:-1}"`);
    expect(s).toContain('i=$((SLURM_ARRAY_TASK_ID + 1))');
  });

  it('merge.sbatch merges every shard folder into DIR', () => {
    expect(mergeSbatch(PLAN)).toContain(`merge '/r/D/shards'/1of3 '/r/D/shards'/2of3 '/r/D/shards'/3of3 --out '/r/D' -q`);
  });

  it('k8s: an Indexed Job of N completions on a ReadWriteMany claim, and a merge Job', () => {
    const plan = { name: 'Paper_ML', shards: 4, image: 'lshdp:1', config: 'configs/c.yaml', out: 'paper', claim: 'pvc', cpus: 2 };
    const job = indexedJob(plan) as { metadata: { name: string }; spec: Record<string, unknown> & { template: { spec: { containers: { args: string[] }[]; volumes: unknown[] } } } };
    expect(job.metadata.name).toBe('lshdp-paper-ml');
    expect(job.spec).toMatchObject({ completionMode: 'Indexed', completions: 4, parallelism: 4 });
    expect(job.spec.template.spec.containers[0]!.args.join(' ')).toContain('--shard auto --shards 4 --out /results/paper/shards/$((JOB_COMPLETION_INDEX + 1))of4');
    expect(job.spec.template.spec.volumes).toEqual([{ name: 'results', persistentVolumeClaim: { claimName: 'pvc' } }]);
    const merge = mergeJob(plan) as { spec: { template: { spec: { containers: { args: string[] }[] } } } };
    expect(merge.spec.template.spec.containers[0]!.args).toEqual(['lshdp', 'merge', ...[1, 2, 3, 4].map((i) => `/results/paper/shards/${i}of4`), '--out', '/results/paper', '-q']);
  });

  it('the CLI writes them (and cluster.json); bad input is one line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lshdp-cluster-'));
    writeFileSync(join(dir, 'c.yaml'), CLI_CONFIG);
    const r = await lshdpIn(['cluster', 'slurm', 'c.yaml', '--shards', '3', '--out', 'D'], { cwd: dir });
    expect(r.status, r.stderr).toBe(0);
    expect(readFileSync(join(dir, 'D', 'cluster', 'array.sbatch'), 'utf8')).toContain('--array=0-2');
    expect(JSON.parse(readFileSync(join(dir, 'D', 'cluster.json'), 'utf8'))).toMatchObject({ engine: 'slurm', shards: 3 });
    const k = await lshdpIn(['cluster', 'k8s', 'c.yaml', '--shards', '2', '--image', 'lshdp:1', '--out', 'K'], { cwd: dir });
    expect(k.status, k.stderr).toBe(0);
    expect(parse(readFileSync(join(dir, 'K', 'cluster', 'indexed-job.yaml'), 'utf8'))).toMatchObject({ kind: 'Job', spec: { completions: 2 } });
    for (const [args, says, env] of [
      [['cluster', 'slurm', 'c.yaml', '--shards', '0'], /^lshdp: error: --shards: expected a positive integer/, {}],
      [['cluster', 'slurm', 'c.yaml', '--shards', '2', '--wait'], /^lshdp: error: --wait: only with --submit/, {}],
      [['cluster', 'slurm', 'c.yaml', '--shards', '2', '--out', 'S', '--submit'], /^lshdp: error: sbatch: not found on PATH \(is this a Slurm login node\?\)$/m, { PATH: '/nonexistent' }],
    ] as [string[], RegExp, NodeJS.ProcessEnv][]) {
      const e = await lshdpIn(args, { cwd: dir, env });
      expect(e.status, e.stderr).toBe(2);
      expect(e.stderr).toMatch(says);
    }
  });
});
