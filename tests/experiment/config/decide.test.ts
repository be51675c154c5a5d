import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/experiment/config.js';
import { nearest, resolveDecide } from '../../../src/experiment/config/decide.js';
import { knownKeys } from '../../../src/experiment/config/schema.js';
import { UserError } from '../../../src/util/errors.js';

const GRID = `name: d
datasets: [{ name: a, format: synthetic, preset: small }]
dims: [30]
k: [1, 5, 20]
kappa: [8]
privacy: { xi: [1, 5] }
mechanisms: [lsh, lshrr]
`;
const WITH_ATTACKS = `${GRID}attack: { known: [0.25, 0.75, 1] }\ninfer: { aux: [0.2, 0.6] }\n`;
const parse = (text: string) => parseConfig(text, 'd.yaml');
const problem = (text: string) => {
  try {
    parse(text);
  } catch (e) {
    expect(e).toBeInstanceOf(UserError);
    return (e as Error).message;
  }
  throw new Error('parsed');
};

describe('decide: block', () => {
  it('defaults known, aux and k to the grid nearest 0.5, 0.5 and 10 (ties: the smaller)', () => {
    const cfg = parse(`${WITH_ATTACKS}decide: { reid1: [0.02, 0.01, 0.02], auc_adv: [0.01] }\n`);
    expect(cfg.decide).toEqual({ reid1: [0.01, 0.02], auc_adv: [0.01] });
    expect(resolveDecide(cfg)).toEqual({ reid1: [0.01, 0.02], known: 0.25, auc_adv: [0.01], aux: 0.6, k: 5 });
    expect(nearest([0.25, 0.75], 0.5)).toBe(0.25);
    expect(nearest([5, 15], 10)).toBe(5);
    expect(nearest([1, 20], 10)).toBe(1);
    expect(nearest([0.5, 1], 0.5)).toBe(0.5);
    // given values are kept
    const given = parse(`${WITH_ATTACKS}decide: { reid1: [0.01], known: 1, aux: 0.2, k: 20 }\n`);
    expect(resolveDecide(given)).toEqual({ reid1: [0.01], known: 1, auc_adv: [], aux: 0.2, k: 20 });
  });

  it('the command line overrides the config, and is checked against the grid under its flag name', () => {
    const cfg = parse(`${WITH_ATTACKS}decide: { reid1: [0.01], known: 0.75 }\n`);
    expect(resolveDecide(cfg, { known: 1, k: 1 })).toMatchObject({ reid1: [0.01], known: 1, k: 1 });
    expect(resolveDecide(cfg, { reid1: [0.05], known: undefined })).toMatchObject({ reid1: [0.05], known: 0.75 });
    expect(() => resolveDecide(cfg, { known: 0.5 })).toThrow('--known: 0.5 is not one of attack.known [0.25, 0.75, 1]');
    expect(() => resolveDecide(cfg, { auc_adv: [1.5] })).toThrow('--auc-adv: every target must lie in (0, 1), got 1.5');
    // no block and no target: no decision; a target from the command line alone: one
    const plain = parse(WITH_ATTACKS);
    expect(resolveDecide(plain)).toBeNull();
    expect(resolveDecide(plain, { auc_adv: [0.01] })).toEqual({ reid1: [], known: 0.25, auc_adv: [0.01], aux: 0.6, k: 5 });
    expect(() => resolveDecide(plain, { k: 5 })).toThrow(/decide: needs at least one target/);
    expect(() => resolveDecide(parse(GRID), { reid1: [0.01] })).toThrow('--reid1: needs the linkage attack (an attack: block; docs/ATTACKS.md)');
  });

  it('one-line errors naming the key, with did-you-mean', () => {
    expect(problem(`${WITH_ATTACKS}decide: { reid1: [0.01], knwn: 0.5 }\n`)).toBe('d.yaml: decide.knwn: unknown key (did you mean "known"?)');
    expect(problem(`${WITH_ATTACKS}decide: { known: 0.25 }\n`)).toMatch(/^d\.yaml: decide: needs at least one target, reid1 or auc_adv/);
    expect(problem(`${WITH_ATTACKS}decide: { reid1: [0] }\n`)).toBe('d.yaml: decide.reid1[0]: must be > 0, got number 0');
    expect(problem(`${WITH_ATTACKS}decide: { reid1: [] }\n`)).toBe('d.yaml: decide.reid1: must list at least one value');
    expect(problem(`${WITH_ATTACKS}decide: { auc_adv: [0.01], aux: 0.5 }\n`)).toBe('d.yaml: decide.aux: 0.5 is not one of infer.aux [0.2, 0.6]');
    expect(problem(`${WITH_ATTACKS}decide: { reid1: [0.01], k: 10 }\n`)).toBe('d.yaml: decide.k: 10 is not one of k [1, 5, 20]');
    expect(problem(`${GRID}decide: { auc_adv: [0.01] }\n`)).toBe('d.yaml: decide.auc_adv: needs attribute inference (an infer: block; docs/ATTACKS.md)');
    expect(problem(`${GRID}decide: { reid1: [0.01] }\n`)).toBe('d.yaml: decide.reid1: needs the linkage attack (an attack: block; docs/ATTACKS.md)');
    expect(problem(`${GRID}decid: { reid1: [0.01] }\n`)).toBe('d.yaml: decid: unknown key (did you mean "decide"?)');
    expect(knownKeys().decide).toEqual(['reid1', 'known', 'auc_adv', 'aux', 'k']);
  });
});
