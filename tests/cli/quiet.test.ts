/**
 * `-q` / `--quiet` on the commands that print progress or informational lines besides their
 * result: the result still goes to stdout, the rest is not printed (as run and merge do).
 */
import { describe, it, expect, beforeAll } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInProc, scratch, smallGrid } from '../helpers/experiment.js';

let dir: string;
let config: string;

beforeAll(async () => {
  ({ dir, config } = scratch(smallGrid('quiet', 3, ['exact', 'lsh', 'lshrr'])([1, 5])));
  const r = await runInProc(dir, ['run', config, '-o', 'r', '--no-report', '-q']);
  expect(r.status, r.stderr).toBe(0);
});

describe('-q on claims and status', () => {
  it('claims -q: the scorecard on stdout, no summary lines on stderr', async () => {
    const loud = await runInProc(dir, ['claims', 'r']);
    expect(loud.status, loud.stderr).toBe(0);
    expect(loud.stderr).toMatch(/^lshdp: claims \(α = 0\.05\): /);
    for (const flag of ['-q', '--quiet']) {
      const quiet = await runInProc(dir, ['claims', 'r', flag]);
      expect(quiet.status, quiet.stderr).toBe(0);
      expect(quiet.stderr).toBe('');
      expect(quiet.stdout).toBe(loud.stdout);
    }
    expect(readFileSync(join(dir, 'r', 'tables', 'claims.md'), 'utf8')).toBe(loud.stdout);
  });

  it('status -q (with a CONFIG: a dry run that loads its data): the status on stdout, nothing on stderr', async () => {
    const loud = await runInProc(dir, ['status', 'r', config]);
    expect(loud.status, loud.stderr).toBe(0);
    const quiet = await runInProc(dir, ['status', 'r', config, '-q']);
    expect(quiet.status, quiet.stderr).toBe(0);
    expect(quiet.stderr).toBe('');
    expect(quiet.stdout).toMatch(/results of this config: \d+ of \d+ present and valid/);
    expect(quiet.stdout).toMatch(/dry run: nothing computed or written/);
  });
});

describe('-q on audit', () => {
  it('only the verdicts on stdout: no real-pair, not-audited or wrote lines; nothing on stderr', async () => {
    const args = ['audit', config, '-o', 'a', '--samples', '200', '--pairs', '1'];
    const loud = await runInProc(dir, args);
    expect(loud.status, loud.stderr).toBe(0);
    expect(loud.stdout).toMatch(/^not audited \(no released code\): exact$/m);
    expect(loud.stdout).toMatch(/^wrote a\/audit\.json/m);
    const quiet = await runInProc(dir, [...args, '-q']);
    expect(quiet.status, quiet.stderr).toBe(0);
    expect(quiet.stderr).toBe('');
    expect(quiet.stdout).toMatch(/^\d+ rows: violated 0, law-mismatch 0, no-violation-found \d+, /);
    expect(quiet.stdout.trimEnd().split('\n')).toHaveLength(1);
    // --json -q: the JSON alone (the informational lines went to stderr before)
    const json = await runInProc(dir, [...args, '--json', '-q']);
    expect(json.stderr).toBe('');
    expect(JSON.parse(json.stdout)).toHaveProperty('results');
  });
});

describe('-q on cluster', () => {
  it('slurm and k8s write their scripts and say nothing', async () => {
    const loud = await runInProc(dir, ['cluster', 'slurm', config, '--shards', '2', '-o', 'S1']);
    expect(loud.status, loud.stderr).toBe(0);
    expect(loud.stderr).toMatch(/^lshdp: wrote .*\nlshdp: submit with: /);
    const slurm = await runInProc(dir, ['cluster', 'slurm', config, '--shards', '2', '-o', 'S2', '-q']);
    expect(slurm.status, slurm.stderr).toBe(0);
    expect(slurm.stderr).toBe('');
    expect(readFileSync(join(dir, 'S2', 'cluster', 'array.sbatch'), 'utf8')).toContain('--array=0-1');
    const k8s = await runInProc(dir, ['cluster', 'k8s', config, '--shards', '2', '--image', 'lshdp:1', '-o', 'K', '--quiet']);
    expect(k8s.status, k8s.stderr).toBe(0);
    expect(k8s.stderr).toBe('');
    expect(readFileSync(join(dir, 'K', 'cluster', 'indexed-job.yaml'), 'utf8')).toContain('completions: 2');
  });
});
