/** What the claims read of a run's config: the grid, d, δ, queries and the run's metric per data set. */
import { describe, it, expect } from 'vitest';
import { parseConfig } from '../../src/experiment/config.js';
import { claimsConfigOf } from '../../src/claims/write.js';

const YAML = (metric: string) => `name: t
seed: 3
datasets:
  - { name: a, format: synthetic, preset: small }
  - { name: b, format: synthetic, preset: small }
dims: [50, 100]
queries: 0
k: [1, 5]
kappa: [10, 20]
trials: 4
privacy: { d: 0.05, delta: 0.02, xi: [0, 2] }
mechanisms: [exact, lsh, lshrr]
${metric}`;

describe('claimsConfigOf', () => {
  it('takes the grid, d, δ, queries and trials from the config; metric defaults to angular', () => {
    const c = claimsConfigOf(parseConfig(YAML(''), 't.yaml'));
    const options = { exact: {}, lsh: {}, lshrr: { accountant: 'paper' } };
    expect(c).toEqual({
      datasets: ['a', 'b'],
      dims: [50, 100],
      kappa: [10, 20],
      k: [1, 5],
      xi: [0, 2],
      d: 0.05,
      delta: 0.02,
      trials: 4,
      queries: 0,
      metric: { a: 'angular', b: 'angular' },
      options,
      decide: null,
    });
  });

  it("takes the decide: block's effective targets (the matched claims'), defaults resolved on the grid", () => {
    const text = YAML('attack: { known: [0.25, 1] }\ndecide: { reid1: [0.02, 0.01] }');
    expect(claimsConfigOf(parseConfig(text, 't.yaml')).decide).toEqual({ reid1: [0.01, 0.02], known: 0.25, auc_adv: [], aux: null, k: 5 });
  });

  it("keeps each entry's options by its label (bucket MinHash's b for the claims)", () => {
    const text = YAML('metric: jaccard').replace('mechanisms: [exact, lsh, lshrr]', 'mechanisms: [lshrr, {name: minhash-bucket, buckets: 16, label: mb16}, minhash-bucket]');
    expect(claimsConfigOf(parseConfig(text, 't.yaml')).options).toEqual({ lshrr: { accountant: 'paper' }, mb16: { buckets: 16, accountant: 'paper' }, 'minhash-bucket': { accountant: 'paper' } });
  });

  it("gives every data set the run's metric", () => {
    expect(claimsConfigOf(parseConfig(YAML('metric: jaccard'), 't.yaml')).metric).toEqual({ a: 'jaccard', b: 'jaccard' });
  });
});
