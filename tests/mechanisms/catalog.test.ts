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
import { BUILT_IN_FACTS, MECHANISM_ALGORITHMS } from '../../src/mechanisms/catalog.js';
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
    expect(units.sort()).toEqual(['directional', 'exact', 'laplsh', 'lsh', 'lshrr', 'rappor']);
    for (const u of units) expect(readdirSync(join(MECHANISMS, u)).sort(), u).toEqual(['facts.ts', 'mechanism.ts']);
  });

  it('a facts.ts imports no code: types.ts (declareFacts only) and the accountants’ names', () => {
    for (const u of units) {
      for (const spec of importsOf(join(MECHANISMS, u, 'facts.ts'))) expect(['../types.js', '../../privacy/accountantNames.js'], `${u}/facts.ts imports ${spec}`).toContain(spec);
    }
    // types.ts carries declareFacts and MECHANISM_ROLES; everything else it imports is a type
    expect(importsOf(join(MECHANISMS, 'types.ts')).every((s) => s.endsWith(' (type)'))).toBe(true);
    expect(readFileSync(join(ROOT, 'src', 'privacy', 'accountantNames.ts'), 'utf8')).not.toMatch(/^import /m);
  });

  it('the catalog imports the units’ facts only', () => {
    const specs = importsOf(join(MECHANISMS, 'catalog.ts'));
    expect(specs.filter((s) => !s.endsWith(' (type)')).every((s) => /^\.\/[a-z]+\/facts\.js$/.test(s))).toBe(true);
  });

  it('each Mechanism’s plain part is its unit’s facts, in the catalog’s order', () => {
    const mechanisms = listMechanisms();
    expect(mechanisms.map((m) => m.name)).toEqual(BUILT_IN_FACTS.map((f) => f.name));
    mechanisms.forEach((m, i) => {
      const facts = BUILT_IN_FACTS[i]!;
      for (const [key, value] of Object.entries(facts)) expect((m as unknown as Record<string, unknown>)[key], `${m.name}.${key}`).toEqual(value);
    });
  });

  it('the algorithm versions the stored results were hashed with (bumping one recomputes that mechanism only)', () => {
    expect(MECHANISM_ALGORITHMS).toEqual({ lshrr: '2', laplsh: '4', vmf: '4', purkayastha: '4' });
  });
});
