import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { autoShard, engineTask } from '../../src/cluster/engineShard.js';
import { runInProc, scratch } from '../helpers/experiment.js';

describe('--shard auto: the shard of an engine task', () => {
  it('Slurm arrays and Kubernetes Indexed Jobs: shard (index − base) + 1 of N, N from the flag or LSHDP_SHARDS', () => {
    expect(autoShard({ shards: '3', env: { SLURM_ARRAY_TASK_ID: '1', SLURM_ARRAY_JOB_ID: '77', SLURM_RESTART_COUNT: '2' } })).toEqual({
      index: 2,
      count: 3,
      task: { engine: 'slurm', variable: 'SLURM_ARRAY_TASK_ID', index: 1, job: '77', restart: 2 },
    });
    expect(autoShard({ shards: '3', env: { JOB_COMPLETION_INDEX: '0' } })).toMatchObject({ index: 1, count: 3, task: { engine: 'kubernetes', index: 0, restart: null } });
    expect(autoShard({ env: { SLURM_ARRAY_TASK_ID: '3', LSHDP_SHARDS: '3' }, base: '1' })).toMatchObject({ index: 3, count: 3 });
    // a task resubmitted alone still takes its share of N (not of the engine's task count)
    expect(autoShard({ shards: '5', env: { SLURM_ARRAY_TASK_ID: '4', SLURM_ARRAY_TASK_COUNT: '1' } })).toMatchObject({ index: 5, count: 5 });
    expect(engineTask({})).toBeNull();
  });

  it('bad input: one line each', () => {
    const cases: [Parameters<typeof autoShard>[0], RegExp][] = [
      [{ shards: '3', env: {} }, /no engine index in the environment \(SLURM_ARRAY_TASK_ID .*JOB_COMPLETION_INDEX.*\); give --shard i\/N/],
      [{ env: { SLURM_ARRAY_TASK_ID: '0' } }, /give the number of shards with --shards N \(or LSHDP_SHARDS\)/],
      [{ shards: '0', env: { SLURM_ARRAY_TASK_ID: '0' } }, /--shards: expected a positive integer, got "0"/],
      [{ shards: '3', env: { SLURM_ARRAY_TASK_ID: '3' } }, /SLURM_ARRAY_TASK_ID=3 with --shard-base 0 gives shard 4, outside 1\.\.3 \(--shards 3\)/],
      [{ shards: '3', base: '1', env: { JOB_COMPLETION_INDEX: '0' } }, /JOB_COMPLETION_INDEX=0 with --shard-base 1 gives shard 0, outside 1\.\.3/],
      [{ shards: '3', env: { SLURM_ARRAY_TASK_ID: '1-3' } }, /SLURM_ARRAY_TASK_ID is "1-3", not an array index/],
      [{ shards: '3', base: '-1', env: { SLURM_ARRAY_TASK_ID: '1' } }, /--shard-base: expected an integer >= 0/],
    ];
    for (const [o, says] of cases) expect(() => autoShard(o)).toThrow(says);
  });

  it('SLURM_ARRAY_TASK_ID=1 and JOB_COMPLETION_INDEX=1 with --shard auto --shards 3 compute the cells of --shard 2/3, and the manifest names the task', async () => {
    const { dir, config } = scratch();
    const base = ['run', config, '--threads', '1', '--no-report', '--no-cache', '-q'];
    const explicit = await runInProc(dir, [...base, '--shard', '2/3', '--out', 'explicit']);
    expect(explicit.status, explicit.stderr).toBe(0);
    const slurm = await runInProc(dir, [...base, '--shard', 'auto', '--shards', '3', '--out', 'slurm'], undefined, { SLURM_ARRAY_TASK_ID: '1', SLURM_ARRAY_JOB_ID: '42' });
    expect(slurm.status, slurm.stderr).toBe(0);
    const k8s = await runInProc(dir, [...base, '--shard', 'auto', '--out', 'k8s'], undefined, { JOB_COMPLETION_INDEX: '1', LSHDP_SHARDS: '3' });
    expect(k8s.status, k8s.stderr).toBe(0);
    const cells = (out: string) =>
      readdirSync(join(dir, out, 'cells'))
        .filter((f) => f.endsWith('.json'))
        .sort();
    expect(cells('explicit').length).toBeGreaterThan(0);
    expect(cells('explicit').length).toBeLessThan(14);
    for (const out of ['slurm', 'k8s']) {
      expect(cells(out), out).toEqual(cells('explicit'));
      for (const f of cells(out)) {
        const strip = (p: string) => JSON.stringify(JSON.parse(readFileSync(p, 'utf8')), (k, v) => (k === 'ms' ? undefined : v));
        expect(strip(join(dir, out, 'cells', f)), `${out}/${f}`).toBe(strip(join(dir, 'explicit', 'cells', f)));
      }
    }
    const manifest = (out: string) => JSON.parse(readFileSync(join(dir, out, 'manifest.json'), 'utf8')).shard;
    expect(manifest('slurm')).toEqual({ index: 2, count: 3, task: { engine: 'slurm', variable: 'SLURM_ARRAY_TASK_ID', index: 1, job: '42', restart: 0 } });
    expect(manifest('k8s')).toMatchObject({ index: 2, count: 3, task: { engine: 'kubernetes', index: 1 } });
    expect(manifest('explicit')).toEqual({ index: 2, count: 3 });
    const misuse = await runInProc(dir, [...base, '--shard', '2/3', '--shards', '3', '--out', 'x']);
    expect(misuse.status).toBe(2);
    expect(misuse.stderr).toMatch(/^lshdp: error: --shards: only with --shard auto\n$/);
  });
});
