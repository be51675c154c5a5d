/**
 * What the claims read of a folder besides the utility values: the attack's per-trial values when
 * the config has `attack`, the recommendations' when it has `recommend`, and neither otherwise.
 * Real folders of a tiny grid (no stand-in readers: a module mock would not hold in a worker whose
 * files share one module registry, vitest.config.ts).
 */
import { describe, it, expect } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runExperiment } from '../../src/pipeline/run.js';
import { readClaimsInput } from '../../src/claims/write.js';
import { readEvaluationValues } from '../../src/machinery/readFolder.js';

const YAML = (extra: string) => `name: t
seed: 3
datasets:
  - { name: a, format: synthetic, preset: small }
dims: [30]
queries: 20
k: [5]
kappa: [10]
trials: 2
privacy: { d: 0.1, delta: 0.01, xi: [0, 2] }
mechanisms: [exact, lsh, lshrr]
${extra}`;

async function folder(extra: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'lshdp-claims-input-'));
  writeFileSync(join(dir, 't.yaml'), YAML(extra));
  const out = join(dir, 'out');
  await runExperiment({ config: join(dir, 't.yaml'), out, report: false, quiet: true, cacheDir: null, workerUrl: null, log: () => undefined });
  return out;
}

describe('readClaimsInput: the optional evaluations', () => {
  it('reads the attack values from the folder when the config has attack, the recommendations when it has recommend', async () => {
    const out = await folder('attack: { known: [0.5] }\nrecommend: { split: random, top: [5] }\n');
    const input = readClaimsInput(out);
    expect(input.attack).toEqual(readEvaluationValues(out, 'attack').values);
    expect(input.recommend).toEqual(readEvaluationValues(out, 'recommend').values);
    expect(input.attack!.length).toBeGreaterThan(0);
    expect(input.recommend!.length).toBeGreaterThan(0);
  });

  it('reads neither for a config without them', async () => {
    const input = readClaimsInput(await folder(''));
    expect('attack' in input || 'recommend' in input).toBe(false);
  });
});
