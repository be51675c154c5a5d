/** Which targets a matched table is computed for: the block's, a command-line target replacing both kinds. */
import { describe, expect, it } from 'vitest';
import { decideSettings, targetsOf } from '../../src/decide/targets.js';
import type { ExperimentConfig } from '../../src/experiment/config/schema.js';

const config = (decide?: ExperimentConfig['decide']) => ({ k: [5, 20], attack: { known: [0.25, 1] }, infer: { aux: [0.5] }, decide }) as unknown as ExperimentConfig;

describe('decide targets', () => {
  it("the block's lists give one table per pair; known, aux and k default to the grid's nearest", () => {
    const s = decideSettings(config({ reid1: [0.01, 0.02], auc_adv: [0.01] }))!;
    expect(targetsOf(s)).toEqual([
      { reid1: 0.01, aucAdv: 0.01, known: 0.25, aux: 0.5, k: 5 },
      { reid1: 0.02, aucAdv: 0.01, known: 0.25, aux: 0.5, k: 5 },
    ]);
  });

  it("a target on the command line replaces the block's of both kinds; the others replace their keys", () => {
    const s = decideSettings(config({ reid1: [0.01], auc_adv: [0.01] }), { reid1: 0.05, k: 20 })!;
    expect(targetsOf(s)).toEqual([{ reid1: 0.05, aucAdv: null, known: 0.25, aux: 0.5, k: 20 }]);
    expect(targetsOf(decideSettings(config({ reid1: [0.01] }), { aucAdv: 0.02 })!)).toEqual([{ reid1: null, aucAdv: 0.02, known: 0.25, aux: 0.5, k: 5 }]);
    expect(decideSettings(config())).toBeNull();
    expect(() => decideSettings(config(), { reid1: 0.01, known: 0.5 })).toThrow(/--known: 0.5 is not one of attack.known \[0.25, 1\]/);
  });
});
