/**
 * End to end on a real single-node Slurm (scripts/slurm-local.sh, Debian's slurm-wlm and munge):
 * `lshdp cluster slurm --submit --wait` gives the unsharded run's bytes; a task cancelled and
 * resubmitted alone, then a new merge job, completes the same bytes. Skipped, with the reason,
 * where Slurm cannot be started here (not root, packages missing).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, ROOT } from '../helpers/cli.js';
import { CLI_CONFIG } from '../helpers/experiment.js';

const SCRIPT = join(ROOT, 'scripts', 'slurm-local.sh');
const missing = ['munged', 'slurmctld', 'slurmd', 'sbatch'].filter((b) => spawnSync('sh', ['-c', `command -v ${b}`]).status !== 0);
const state = mkdtempSync(join(tmpdir(), 'lshdp-slurm-'));
/** Why Slurm cannot run here, or null once it is up (started here, before the tests are collected). */
function startSlurm(): string | null {
  if (process.env.LSHDP_TEST_TIER !== 'full') return 'long tier only';
  if (process.getuid?.() !== 0) return 'not root';
  if (missing.length > 0) return `missing ${missing.join(', ')} (apt-get install slurm-wlm munge)`;
  const up = spawnSync('bash', [SCRIPT, 'start', state], { encoding: 'utf8', timeout: 120_000 });
  return up.status === 0 ? null : `scripts/slurm-local.sh could not start it here: ${(up.stderr || String(up.error)).trim().split('\n').pop()}`;
}
const reason = startSlurm();
if (reason) {
  console.log(`skipping the Slurm end-to-end test: ${reason}`);
  rmSync(state, { recursive: true, force: true });
}

describe.skipIf(reason !== null)('lshdp on a real single-node Slurm', () => {
  const work = mkdtempSync(join(tmpdir(), 'lshdp-slurm-work-'));
  const env = { ...process.env, SLURM_CONF: join(state, 'slurm.conf') };
  const run = (cmd: string, args: string[]) => spawnSync(cmd, args, { cwd: work, env, encoding: 'utf8', timeout: 300_000 });

  beforeAll(() => {
    writeFileSync(join(work, 'c.yaml'), CLI_CONFIG);
    const base = run(process.execPath, [BIN, 'run', 'c.yaml', '--out', 'unsharded', '--no-report', '-q']);
    if (base.status !== 0) throw new Error(base.stderr);
  });
  afterAll(() => {
    spawnSync('bash', [SCRIPT, 'stop', state]);
    rmSync(state, { recursive: true, force: true });
  });

  it('cluster slurm --submit --wait: the merged utility.csv is the unsharded run’s, byte for byte', () => {
    const r = run(process.execPath, [BIN, 'cluster', 'slurm', 'c.yaml', '--shards', '3', '--out', join(work, 'D'), '--submit', '--wait']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/submitted array job \d+ and merge job \d+/);
    for (const f of ['utility.csv', 'nn_distances.csv']) expect(readFileSync(join(work, 'D', f), 'utf8'), f).toBe(readFileSync(join(work, 'unsharded', f), 'utf8'));
    const shard = JSON.parse(readFileSync(join(work, 'D', 'shards', '2of3', 'manifest.json'), 'utf8')).shard;
    expect(shard).toMatchObject({ index: 2, count: 3, task: { engine: 'slurm', index: 1 } });
  });

  it('a task cancelled and resubmitted alone, then a new merge job, completes the same bytes', async () => {
    const out = join(work, 'E');
    const w = run(process.execPath, [BIN, 'cluster', 'slurm', 'c.yaml', '--shards', '3', '--out', out]);
    expect(w.status, w.stderr).toBe(0);
    const array = run('sbatch', ['--parsable', join(out, 'cluster', 'array.sbatch')]).stdout.trim();
    // cancel the second task (mid-run or before it started: the share is missing either way)
    run('scancel', [`${array}_1`]);
    const gone = async (ids: string) => {
      for (let i = 0; i < 300; i++) {
        if (run('squeue', ['-h', '-j', ids]).stdout.trim() === '') return;
        await new Promise((ok) => setTimeout(ok, 1000));
      }
      throw new Error(`jobs ${ids} still queued`);
    };
    await gone(array);
    const again = run('sbatch', ['--parsable', '--array=1', join(out, 'cluster', 'array.sbatch')]).stdout.trim();
    const merge = run('sbatch', ['--parsable', `--dependency=afterok:${again}`, '--kill-on-invalid-dep=yes', join(out, 'cluster', 'merge.sbatch')]).stdout.trim();
    await gone(`${again},${merge}`);
    expect(existsSync(join(out, 'utility.csv')), readFileSync(join(out, 'cluster', 'logs', 'merge.out'), 'utf8')).toBe(true);
    expect(readFileSync(join(out, 'utility.csv'), 'utf8')).toBe(readFileSync(join(work, 'unsharded', 'utility.csv'), 'utf8'));
  });
});
