import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { configToDocument, parseConfig } from '../../../src/experiment/config.js';
import { entryXi, trialResults } from '../../../src/experiment/grid.js';
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
});
