/**
 * What a run says of a recommend block its data cannot serve (issue 44, item 4): a holdout that
 * leaves no user a held-out item is a config error naming the file, the key and its value (not a
 * message from deep in the run); list lengths above n run, with one warning that the lists are cut.
 */
import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { STACK_RE } from '../helpers/cli.js';
import { runInProc, scratch } from '../helpers/experiment.js';

const config = (recommend: string) => `name: rec-input
seed: 5
datasets:
  - { name: a, format: synthetic, preset: small }
dims: [30]
queries: 20
k: [1]
kappa: [8]
trials: 2
privacy: { d: 0.1, delta: 0.01, xi: [10] }
mechanisms: [exact, lsh]
recommend: ${recommend}
`;

describe('a recommend block the data cannot serve', () => {
  it('a holdout that leaves no user a held-out item names the file, recommend.holdout and its value', async () => {
    const { dir } = scratch(config('{ split: random, holdout: 1000 }'), 'h.yaml');
    const r = await runInProc(dir, ['run', 'h.yaml', '--out', 'h', '--threads', '1', '--no-report', '--no-cache']);
    expect(r.status).toBe(2);
    expect(r.stderr).not.toMatch(STACK_RE);
    expect(r.stderr).toMatch(/^lshdp: error: h\.yaml: recommend\.holdout: 1000 leaves no user of data set "a" at n=30 a held-out item among the n items/m);
  });

  it('list lengths above n run, with one warning that those lists are cut', async () => {
    const { dir } = scratch(config('{ split: random, holdout: 1, top: [10, 100000] }'), 't.yaml');
    const r = await runInProc(dir, ['run', 't.yaml', '--out', 't', '--threads', '1', '--no-report', '--no-cache', '-q']);
    expect(r.status, r.stderr).toBe(0);
    const warnings = r.stderr.split('\n').filter((l) => l.startsWith('lshdp: warning: recommend.top'));
    expect(warnings).toEqual(["lshdp: warning: recommend.top: 100000 is more than n = 30: a list holds at most the n items less the user's training items, so those lists are cut there"]);
    writeFileSync(join(dir, 'u.yaml'), config('{ split: random, holdout: 1, top: [10, 20] }'));
    const quiet = await runInProc(dir, ['run', 'u.yaml', '--out', 'u', '--threads', '1', '--no-report', '--no-cache', '-q']);
    expect(quiet.stderr).not.toMatch(/recommend\.top/);
  });
});
