import { describe, it, expect } from 'vitest';
import { STACK_RE } from '../helpers/cli.js';
import { lshdpIn } from '../helpers/inproc.js';

describe('lshdp toy', () => {
  it("prints the paper's example with probabilities and leakage", async () => {
    const r = await lshdpIn(['toy']);
    expect(r.status).toBe(0);
    expect(r.stdout.match(/p = 1\/8/g)).toHaveLength(4);
    expect(r.stdout.match(/p = 1\/4/g)).toHaveLength(2);
    expect(r.stdout).toMatch(/expected min-entropy leakage: 0\.5 bits/);
    expect(r.stdout).toMatch(/min-entropy leakage \(uniform prior\): 0 bits/);
  });

  it('--points --json gives the exact analysis of any small 2-D set', async () => {
    const r = await lshdpIn(['toy', '--points', '1,0;0,1', '--json']);
    expect(r.status).toBe(0);
    const j = JSON.parse(r.stdout);
    // two orthogonal points: four quarter-circle arcs, each a different function
    expect(j.functions).toHaveLength(4);
    for (const f of j.functions) expect(f.probability).toBeCloseTo(0.25, 12);
    expect(j.expectedMinEntropyLeakage).toBeCloseTo(0.5, 12);
  });

  it('rejects bad points with one line and exit 2', async () => {
    const r = await lshdpIn(['toy', '--points', '0,0;1,1']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^lshdp: error: --points: point 1 is the origin/);
    expect(r.stderr).not.toMatch(STACK_RE);
  });
});
