/**
 * What the claims read of a folder besides the utility values: the attack's per-trial values when
 * the config has `attack`, the recommendations' when it has `recommend`, and neither otherwise (a
 * folder without them never calls their readers). The folder readers are stand-ins here: their
 * bodies belong to the evaluations that write the values.
 */
import { describe, it, expect, vi, beforeEach } from 'vitest';
import { parseConfig } from '../../src/experiment/config.js';
import type { AttackTrialValue, RecommendTrialValue } from '../../src/experiment/trialValues.js';

const attackValue: AttackTrialValue = {
  dataset: 'a',
  n: 50,
  kappa: 10,
  mechanism: 'lsh',
  base: 'lsh',
  accountant: null,
  xi: null,
  known: 0.5,
  trial: 0,
  reid1: 0.3,
  reid10: 0.6,
  users: 100,
  targets: 100,
};
const recommendValue: RecommendTrialValue = {
  dataset: 'a',
  n: 50,
  kappa: 10,
  k: 5,
  mechanism: 'lsh',
  base: 'lsh',
  accountant: null,
  xi: null,
  top: 10,
  trial: 0,
  hr: 0.2,
  ndcg: 0.1,
  itemRecall: 0.05,
  queries: 10,
};

const readers = vi.hoisted(() => ({ attack: vi.fn(), recommend: vi.fn() }));
vi.mock('../../src/machinery/readFolder.js', async (original) => ({
  ...(await original<typeof import('../../src/machinery/readFolder.js')>()),
  trialValuesOf: () => ({ values: [], nn: [] }),
  readAttackValues: readers.attack,
  readRecommendValues: readers.recommend,
}));
const { claimsInputOf } = await import('../../src/claims/write.js');

const YAML = (extra: string) => `name: t
seed: 3
datasets:
  - { name: a, format: synthetic, preset: small }
dims: [50]
k: [5]
kappa: [10]
trials: 2
privacy: { d: 0.1, delta: 0.01, xi: [0, 2] }
mechanisms: [exact, lsh, lshrr]
${extra}`;

describe('claimsInputOf: the optional evaluations', () => {
  beforeEach(() => {
    readers.attack.mockReset().mockReturnValue({ values: [attackValue] });
    readers.recommend.mockReset().mockReturnValue({ values: [recommendValue] });
  });

  it('reads the attack values from the folder when the config has attack, the recommendations when it has recommend', () => {
    const input = claimsInputOf(parseConfig(YAML('attack: { known: [0.5] }\nrecommend: { split: random }'), 't.yaml'), new Map(), { users: [] }, 'DIR');
    expect(readers.attack).toHaveBeenCalledWith('DIR');
    expect(readers.recommend).toHaveBeenCalledWith('DIR');
    expect(input.attack).toEqual([attackValue]);
    expect(input.recommend).toEqual([recommendValue]);
  });

  it('reads neither for a config without them', () => {
    const input = claimsInputOf(parseConfig(YAML(''), 't.yaml'), new Map(), { users: [] }, 'DIR');
    expect(readers.attack).not.toHaveBeenCalled();
    expect(readers.recommend).not.toHaveBeenCalled();
    expect('attack' in input || 'recommend' in input).toBe(false);
  });
});
