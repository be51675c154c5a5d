import { describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lshdpIn } from '../helpers/inproc.js';
import { CLI_CONFIG } from '../helpers/experiment.js';

describe('lshdp status on a folder of lshdp cluster', () => {
  it('says which shards are complete, incomplete or missing, and the commands that resubmit them and merge', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lshdp-cstatus-'));
    writeFileSync(join(dir, 'c.yaml'), CLI_CONFIG);
    expect((await lshdpIn(['cluster', 'slurm', 'c.yaml', '--shards', '3', '--out', 'D'], { cwd: dir })).status).toBe(0);
    const one = await lshdpIn(['run', 'c.yaml', '--shard', '1/3', '--out', 'D/shards/1of3', '--no-report', '-q', '--threads', '1'], { cwd: dir });
    expect(one.status, one.stderr).toBe(0);
    mkdirSync(join(dir, 'D', 'shards', '3of3', 'cells'), { recursive: true });
    writeFileSync(join(dir, 'D', 'shards', '3of3', 'cells', 'exact_x.json'), '{}');
    const r = await lshdpIn(['status', 'D'], { cwd: dir });
    expect(r.status, r.stderr).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toBe('cluster: slurm, 3 shards');
    expect(lines[1]).toBe('shards: 1 of 3 complete; incomplete: 3 (index 2, 1 cells stored); missing: 2 (index 1)');
    expect(lines[2]).toMatch(
      /^resubmit them .*: jid=\$\(sbatch --parsable --array=1,2 .*D\/cluster\/array\.sbatch\) && sbatch --dependency=afterok:\$jid --kill-on-invalid-dep=yes .*D\/cluster\/merge\.sbatch$/,
    );
    const json = JSON.parse((await lshdpIn(['status', 'D', '--json'], { cwd: dir })).stdout);
    expect(json.cluster.shards.map((s: { state: string }) => s.state)).toEqual(['complete', 'missing', 'incomplete']);
  });
});
