import { describe, it, expect } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { scratch, runInProc, runAndSignal, temporaries } from '../helpers/experiment.js';

const read = (p: string) => readFileSync(p, 'utf8');

/** CLI_CONFIG's results: 2 exact cells + 12 trial cells of 7 results (lsh; lshrr and laplsh at 3 xi). */
const RESULTS = 2 + 12 * 7;

/** The results stored in a folder's cells/ (an exact cell is one result, a trial cell one per entry). */
function storedResults(outDir: string): number {
  let n = 0;
  for (const f of readdirSync(join(outDir, 'cells')).filter((x) => x.endsWith('.json') && !x.startsWith('.'))) {
    const rec = JSON.parse(read(join(outDir, 'cells', f)));
    n += rec.kind === 'exact' ? 1 : Object.keys(rec.results).length;
  }
  return n;
}

describe('lshdp run survives interruptions', () => {
  it('SIGINT stops promptly, keeps finished cells, prints how to resume, exits 130; SIGTERM exits 143', async () => {
    const { dir, config } = scratch();
    // the runs that are not signalled (the reference and the resume) run the same entry in this
    // process; the signalled ones are real children
    const base = await runInProc(dir, ['run', config, '--out', 'base', '--threads', '2', '--no-report', '--no-cache']);
    expect(base.status).toBe(0);
    const args = ['run', config, '--out', 'i', '--threads', '2', '--no-report', '--no-cache'];
    const r = await runAndSignal(dir, args, join(dir, 'i'), 3, 'SIGINT');
    expect(r.sentAt).toBeGreaterThanOrEqual(3);
    // 11 cells were still to come when the signal was sent, so the run cannot have finished first
    expect(r.code, r.stderr).toBe(130);
    expect(r.stderr).toMatch(/^lshdp: interrupted by SIGINT: \d+ of 86 results finished and kept in i\/cells; to resume, run the same command again: lshdp run tiny\.yaml --out i/m);
    expect(temporaries(join(dir, 'i'))).toEqual([]);
    const kept = Number(/SIGINT: (\d+) of/.exec(r.stderr)![1]);
    expect(kept).toBeLessThan(RESULTS);
    expect(storedResults(join(dir, 'i'))).toBe(kept);
    const t = await runAndSignal(dir, ['run', config, '--out', 't', '--threads', '1', '--no-report', '--no-cache'], join(dir, 't'), 2, 'SIGTERM');
    expect(t.code, t.stderr).toBe(143);
    expect(t.stderr).toMatch(/interrupted by SIGTERM: \d+ of 86 results finished and kept/);
    const resumed = await runInProc(dir, args);
    expect(resumed.status).toBe(0);
    expect(read(join(dir, 'i', 'utility.csv'))).toBe(read(join(dir, 'base', 'utility.csv')));
  });
});
