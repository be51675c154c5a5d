import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { configToDocument, parseConfig } from '../../../src/experiment/config.js';
import { cellResults, entryXi, trialResults } from '../../../src/experiment/grid.js';
import { mechanismInfo } from '../../../src/mechanisms/index.js';
import { UserError } from '../../../src/util/errors.js';
import { stringify } from '../../../src/vendor/yaml.js';

const head = (mechanisms: string) => `name: x
datasets: [{ name: a, format: synthetic, preset: small }]
dims: [30]
k: [5]
kappa: [8]
privacy: { xi: [5, 1] }
mechanisms: ${mechanisms}
`;
const problem = (text: string, cwd?: string) => {
  try {
    parseConfig(text, 'x.yaml', cwd ? { cwd } : {});
  } catch (e) {
    expect(e).toBeInstanceOf(UserError);
    return (e as Error).message;
  }
  throw new Error('parsed');
};
const PLUGINS = resolve('tests/fixtures/plugins');

describe('per-entry ξ in a config', () => {
  it('an entry carries its own ξ (ascending), not as an option; its grid is the sorted union with privacy.xi', () => {
    const cfg = parseConfig(head('[lsh, { name: lshrr, xi: [20, 0.5, 5] }, laplsh]'), 'x.yaml');
    const lshrr = cfg.mechanisms[1]!;
    expect(lshrr).toEqual({ name: 'lshrr', label: 'lshrr', options: { accountant: 'paper' }, xi: [0.5, 5, 20] });
    expect(cfg.mechanisms[2]!.xi).toBeUndefined();
    expect(entryXi(lshrr, cfg.privacy.xi)).toEqual([0.5, 1, 5, 20]);
    // without its own values, privacy.xi in config order (the rows' order of every older config)
    expect(entryXi(cfg.mechanisms[2]!, cfg.privacy.xi)).toEqual([5, 1]);
    const ids = trialResults(cfg, mechanismInfo).map((r) => `${r.base}@${r.xi}`);
    expect(ids).toEqual(['lsh@null', 'lshrr@0.5', 'lshrr@1', 'lshrr@5', 'lshrr@20', 'laplsh@5', 'laplsh@1']);
    // a result at an entry's ξ that privacy.xi also has is the same result (same id as without xi:)
    const plain = trialResults(parseConfig(head('[lsh, lshrr, laplsh]'), 'x.yaml'), mechanismInfo);
    for (const r of plain) expect(trialResults(cfg, mechanismInfo).some((s) => s.id === r.id)).toBe(true);
    // the effective config reruns to the same entries
    const again = parseConfig(stringify(configToDocument(cfg)), 'x.yaml');
    expect(again.mechanisms).toEqual(cfg.mechanisms);
  });

  it('one-line errors: duplicates, a mechanism without a budget, bad values', () => {
    expect(problem(head('[{ name: lshrr, xi: [2, 2] }]'))).toBe('x.yaml: mechanisms[0].xi: duplicate value 2');
    expect(problem(head('[lshrr, { name: lsh, xi: [2] }]'))).toMatch(/^x\.yaml: mechanisms\[1\]\.xi: lsh has no privacy budget \(ξ applies to .*lshrr/);
    expect(problem(head('[{ name: lshrr, xi: [-1] }]'))).toBe('x.yaml: mechanisms[0].xi[0]: must be >= 0, got number -1');
    expect(problem(head('[{ name: lshrr, xi: [] }]'))).toBe('x.yaml: mechanisms[0].xi: must list at least one value');
  });

  it('plugin entries: xi is the entry ξ, never an option; a plugin declaring an option xi is an error', () => {
    const cfg = parseConfig(head(`[lsh, { module: ${join(PLUGINS, 'noisy-signs.mjs')}, xi: [3] }]`), 'x.yaml');
    expect(cfg.mechanisms[1]!.xi).toEqual([3]);
    expect(cfg.mechanisms[1]!.options.xi).toBeUndefined();
    const dir = mkdtempSync(join(tmpdir(), 'lshdp-xi-plugin-'));
    writeFileSync(
      join(dir, 'takes-xi.mjs'),
      "export default { name: 'takes-xi', usesXi: true, optionKeys: ['xi'], epsilon: ({ xi, kappa }) => ({ epsilon_bit: xi / kappa, epsilon_ldp: xi, fallback: false }), encode: ({ codes }) => codes };\n",
    );
    expect(problem(head('[lsh, { module: takes-xi.mjs }]'), dir)).toMatch(/^x\.yaml: mechanisms\[1\]\.module: plugin takes-xi \(takes-xi\.mjs\) declares an option "xi", a key of every entry/);
  });

  it('per cell: xi: { values, at: [{ dataset, n, kappa, xi }] } adds values to the cells each item names (an omitted key: every value)', () => {
    const two = head('[lsh, { name: lshrr, xi: { values: [20], at: [{ dataset: a, n: 30, kappa: 8, xi: [3, 2.5] }, { n: 40, xi: [7] }] } }, laplsh]').replace('dims: [30]', 'dims: [30, 40]');
    const cfg = parseConfig(two, 'x.yaml');
    const lshrr = cfg.mechanisms[1]!;
    expect(lshrr).toEqual({
      name: 'lshrr',
      label: 'lshrr',
      options: { accountant: 'paper' },
      xi: [20],
      xiAt: [
        { dataset: 'a', n: 30, kappa: 8, xi: [2.5, 3] },
        { n: 40, xi: [7] },
      ],
    });
    expect(entryXi(lshrr, cfg.privacy.xi, { dataset: 'a', n: 30, kappa: 8 })).toEqual([1, 2.5, 3, 5, 20]);
    expect(entryXi(lshrr, cfg.privacy.xi, { dataset: 'a', n: 40, kappa: 8 })).toEqual([1, 5, 7, 20]);
    // without a cell: every value any cell has (what a trial cell may hold)
    expect(entryXi(lshrr, cfg.privacy.xi)).toEqual([1, 2.5, 3, 5, 7, 20]);
    const rs = trialResults(cfg, mechanismInfo);
    const of = cellResults(cfg, rs, mechanismInfo);
    const at = (n: number) => of({ dataset: 'a', n, kappa: 8 }).map((r) => `${r.base}@${r.xi}`);
    expect(at(30)).toEqual(['lsh@null', 'lshrr@1', 'lshrr@2.5', 'lshrr@3', 'lshrr@5', 'lshrr@20', 'laplsh@5', 'laplsh@1']);
    expect(at(40)).toEqual(['lsh@null', 'lshrr@1', 'lshrr@5', 'lshrr@7', 'lshrr@20', 'laplsh@5', 'laplsh@1']);
    // without per-cell values every cell holds the config's results themselves
    const plain = parseConfig(head('[lsh, { name: lshrr, xi: [2] }]'), 'x.yaml');
    const plainRs = trialResults(plain, mechanismInfo);
    expect(cellResults(plain, plainRs, mechanismInfo)({ dataset: 'a', n: 30, kappa: 8 })).toBe(plainRs);
    // the effective config writes the object form back, and reruns to the same entries
    const doc = configToDocument(cfg);
    expect((doc.mechanisms as Record<string, unknown>[])[1]!.xi).toEqual({ values: [20], at: lshrr.xiAt });
    expect(parseConfig(stringify(doc), 'x.yaml').mechanisms).toEqual(cfg.mechanisms);
  });

  it('per cell: one-line errors naming the key', () => {
    const at = (item: string) => head(`[{ name: lshrr, xi: { at: [${item}] } }]`);
    expect(problem(at('{ n: 31, xi: [2] }'))).toBe('x.yaml: mechanisms[0].xi.at[0].n: 31 is not one of dims (30)');
    expect(problem(at('{ kappa: 9, xi: [2] }'))).toBe('x.yaml: mechanisms[0].xi.at[0].kappa: 9 is not one of kappa (8)');
    expect(problem(at('{ dataset: b, xi: [2] }'))).toBe('x.yaml: mechanisms[0].xi.at[0].dataset: "b" is not a data set of this config (a)');
    expect(problem(at('{ n: 30, xi: [2, 2] }'))).toBe('x.yaml: mechanisms[0].xi.at[0].xi: duplicate value 2');
    expect(problem(at('{ n: 30, xi: [-2] }'))).toBe('x.yaml: mechanisms[0].xi.at[0].xi[0]: must be >= 0, got number -2');
    expect(problem(at('{ n: 30, xis: [2] }'))).toMatch(/mechanisms\[0\]\.xi\.at\[0\]\.xis: unknown key \(did you mean "xi"\?\)/);
    expect(problem(head('[{ name: lshrr, xi: { at: [] } }]'))).toBe('x.yaml: mechanisms[0].xi.at: must list at least one item');
    expect(problem(head('[{ name: lshrr, xi: 3 }]'))).toBe(
      'x.yaml: mechanisms[0].xi: must be a list of ξ values, or { values: [...], at: [{ dataset, n, kappa, xi: [...] }] } (ξ per cell), got number 3',
    );
    expect(problem(head('[lshrr, { name: lsh, xi: { at: [{ n: 30, xi: [2] }] } }]'))).toMatch(/^x\.yaml: mechanisms\[1\]\.xi: lsh has no privacy budget/);
  });
});
