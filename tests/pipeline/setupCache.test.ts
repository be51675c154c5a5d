import { describe, it, expect } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runExperiment } from '../../src/pipeline/run.js';

const CONFIG = (xi: number[]) => `name: setups
seed: 5
datasets:
  - { name: a, format: synthetic, preset: small }
dims: [30]
queries: 20
k: [1, 5]
kappa: [8]
trials: 2
privacy: { d: 0.1, delta: 0.01, xi: [${xi.join(', ')}] }
mechanisms: [exact, lsh, lshrr, laplsh, vmf]
`;

describe('the trial setup cache in a run (real engine, in this thread)', () => {
  it('keeps one setup per trial cell; a grown grid from the kept setups equals the grown grid at once without them, byte for byte', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lshdp-setups-'));
    const cache = join(dir, 'cache');
    const config = join(dir, 'setups.yaml');
    const run = (out: string, cacheDir: string | null) => runExperiment({ config, out: join(dir, out), report: false, quiet: true, cacheDir, workerUrl: null, log: () => undefined });
    writeFileSync(config, CONFIG([1, 4]));
    await run('grown', cache);
    const setups = () =>
      readdirSync(cache)
        .filter((f) => f.startsWith('setup-'))
        .sort();
    // 2 trials
    expect(setups()).toHaveLength(2);
    const before = setups().map((f) => readFileSync(join(cache, f)));
    writeFileSync(config, CONFIG([1, 4, 9]));
    const grown = await run('grown', cache);
    expect(grown.computed).toBe(2 * 3);
    // nothing new to keep: the files are those of the first run
    expect(setups().map((f) => readFileSync(join(cache, f)))).toEqual(before);
    await run('once', null);
    for (const file of ['utility.csv', 'claims.json']) {
      expect(readFileSync(join(dir, 'grown', file), 'utf8'), file).toBe(readFileSync(join(dir, 'once', file), 'utf8'));
    }
  });
});
