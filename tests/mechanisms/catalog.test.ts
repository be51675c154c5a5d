/**
 * The units' declared facts: light (a facts.ts imports no code, so the catalog and a run's currency
 * check load no mechanism), the single source of each Mechanism's plain part, and the algorithm
 * versions the result hashes were made with.
 */
import { describe, expect, it } from 'vitest';
import ts from 'typescript';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../helpers/cli.js';
import { BUILT_IN_FACTS, BUILT_IN_OPTIONS, MECHANISM_ALGORITHMS } from '../../src/mechanisms/catalog.js';
import { listMechanisms } from '../../src/mechanisms/registry.js';

const MECHANISMS = join(ROOT, 'src', 'mechanisms');

/** The module specifiers a file imports (type-only imports marked). */
function importsOf(file: string): string[] {
  const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  return sf.statements.flatMap((s) =>
    (ts.isImportDeclaration(s) || ts.isExportDeclaration(s)) && s.moduleSpecifier && ts.isStringLiteral(s.moduleSpecifier)
      ? [`${s.moduleSpecifier.text}${(ts.isImportDeclaration(s) && s.importClause?.isTypeOnly) || (ts.isExportDeclaration(s) && s.isTypeOnly) ? ' (type)' : ''}`]
      : [],
  );
}

const units = readdirSync(MECHANISMS).filter((f) => statSync(join(MECHANISMS, f)).isDirectory());

describe('the units of src/mechanisms/', () => {
  it('each is a folder with its facts and its code', () => {
    expect(units.sort()).toEqual(['directional', 'exact', 'jl', 'laplsh', 'lsh', 'lshrr', 'minhash', 'rappor']);
    for (const u of units) expect(readdirSync(join(MECHANISMS, u)).sort(), u).toEqual(['facts.ts', 'mechanism.ts']);
  });

  it('a facts.ts imports no code: types.ts (declareFacts only), the accountants’ names, another unit’s facts', () => {
    for (const u of units) {
      for (const spec of importsOf(join(MECHANISMS, u, 'facts.ts'))) {
        const allowed = ['../types.js', '../types.js (type)', '../../privacy/accountantNames.js'].includes(spec) || /^\.\.\/[a-z]+\/facts\.js$/.test(spec);
        expect(allowed, `${u}/facts.ts imports ${spec}`).toBe(true);
      }
    }
    // types.ts carries declareFacts and MECHANISM_ROLES; everything else it imports is a type
    expect(importsOf(join(MECHANISMS, 'types.ts')).every((s) => s.endsWith(' (type)'))).toBe(true);
    expect(readFileSync(join(ROOT, 'src', 'privacy', 'accountantNames.ts'), 'utf8')).not.toMatch(/^import /m);
  });

  it('the catalog imports the units’ facts only', () => {
    const specs = importsOf(join(MECHANISMS, 'catalog.ts'));
    // and the one rule on them that has no code behind it (releasable.ts: what cannot be released)
    expect(specs.filter((s) => !s.endsWith(' (type)')).every((s) => /^\.\/[a-z]+\/facts\.js$/.test(s) || s === './releasable.js')).toBe(true);
  });

  it('each Mechanism’s plain part is its unit’s facts, in the catalog’s order', () => {
    const mechanisms = listMechanisms();
    expect(mechanisms.map((m) => m.name)).toEqual(BUILT_IN_FACTS.map((f) => f.name));
    mechanisms.forEach((m, i) => {
      const facts = BUILT_IN_FACTS[i]!;
      for (const [key, value] of Object.entries(facts)) expect((m as unknown as Record<string, unknown>)[key], `${m.name}.${key}`).toEqual(value);
    });
  });

  it('the config’s mechanism options are the units’ declared ones; units sharing a key share its spec', () => {
    expect(Object.keys(BUILT_IN_OPTIONS)).toEqual(['sampler', 'hashes', 'guarantee', 'buckets']);
    for (const f of BUILT_IN_FACTS) {
      expect(f.optionKeys, f.name).toEqual(Object.keys(f.optionSchema ?? {}));
      for (const [key, spec] of Object.entries(f.optionSchema ?? {})) expect(spec, `${f.name}.${key}`).toBe(BUILT_IN_OPTIONS[key]);
    }
    expect(BUILT_IN_FACTS.filter((f) => f.optionSchema?.sampler).map((f) => f.name)).toEqual(['laplsh', 'vmf', 'purkayastha']);
    expect(BUILT_IN_FACTS.filter((f) => f.optionSchema?.hashes).map((f) => f.name)).toEqual(['rappor', 'rappor-vector']);
  });

  it('the config schema takes each option’s range from its spec (both ends, and the first value past them)', async () => {
    const { parseConfig } = await import('../../src/experiment/config.js');
    const text = (entry: string) =>
      `name: o\nseed: 1\ndatasets:\n  - { name: s, format: synthetic, preset: small }\ndims: [20]\nqueries: 5\nk: [1]\nkappa: [4]\ntrials: 1\nprivacy: { d: 0.1, delta: 0.01, xi: [1] }\nmechanisms: [exact, ${entry}]\n`;
    for (const h of [1, 64]) expect(() => parseConfig(text(`{ name: rappor, hashes: ${h} }`), 'o.yaml')).not.toThrow();
    for (const h of [0, 65]) expect(() => parseConfig(text(`{ name: rappor, hashes: ${h} }`), 'o.yaml')).toThrow(/hashes/);
    for (const s of ['projected', 'direct']) expect(() => parseConfig(text(`{ name: vmf, sampler: ${s} }`), 'o.yaml')).not.toThrow();
    expect(() => parseConfig(text('{ name: vmf, sampler: polar }'), 'o.yaml')).toThrow(/sampler/);
    expect(() => parseConfig(text('{ name: lshrr, sampler: direct }'), 'o.yaml')).toThrow('o.yaml: mechanisms[1].sampler: only laplsh, vmf, purkayastha take a sampler');
    expect(() => parseConfig(text('{ name: lsh, hashes: 2 }'), 'o.yaml')).toThrow('o.yaml: mechanisms[1].hashes: only rappor, rappor-vector take hashes');
  });

  it('the algorithm versions the stored results were hashed with (bumping one recomputes that mechanism only)', () => {
    expect(MECHANISM_ALGORITHMS).toEqual({ lshrr: '2', laplsh: '4', vmf: '4', purkayastha: '4', 'jl-gaussian': '1', 'minhash-bucket': '1', 'minhash-noisy': '1' });
  });
});
