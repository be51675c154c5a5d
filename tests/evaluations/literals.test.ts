/**
 * An evaluation is one unit (src/evaluations/): the code outside asks the list for its facts,
 * never names one. Measured here: the string literals in src/ code (not comments; single, double
 * or backtick quotes without substitutions) equal to an optional evaluation's name, block key or
 * file (recommend, recommend.csv, attack, attack.csv), outside the evaluations' own files: the
 * folder src/evaluations/ and the files named after one evaluation (claims/attack.ts,
 * cli/tableAttack.ts, cli/tableRecommend.ts, …). The count stays at most 10 and every file
 * that still holds one is listed, with why, in docs/ARCHITECTURE.md ("Evaluations"). Literals are
 * found with the TypeScript compiler's own parser.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { basename, join, relative, sep } from 'node:path';
import { ROOT } from '../helpers/cli.js';
import { nameLiterals, tsSources } from '../helpers/literals.js';
import { optionalEvaluations } from '../../src/evaluations/catalog.js';

const CAP = 10;
const UNITS = optionalEvaluations();
/** What names an evaluation: its name, its block key and its file. */
const NAMES = new Set(UNITS.flatMap((e) => [e.name, e.block!, e.file]));

/** A file of one evaluation: in src/evaluations/, or named after one (its name in the file's name, any case). */
const ownFile = (rel: string): boolean => rel.startsWith('src/evaluations/') || UNITS.some((e) => basename(rel).toLowerCase().includes(e.name.toLowerCase()));

function outsideUnits(): string[] {
  const found: string[] = [];
  for (const file of tsSources(join(ROOT, 'src'))) {
    const rel = relative(ROOT, file).split(sep).join('/');
    if (!ownFile(rel)) found.push(...nameLiterals(rel, readFileSync(file, 'utf8'), NAMES));
  }
  return found;
}

function evaluationsSection(): string {
  const doc = readFileSync(join(ROOT, 'docs', 'ARCHITECTURE.md'), 'utf8');
  const start = doc.indexOf('\n## Evaluations\n');
  expect(start, 'docs/ARCHITECTURE.md has an "## Evaluations" section').toBeGreaterThanOrEqual(0);
  const end = doc.indexOf('\n## ', start + 1);
  return doc.slice(start, end < 0 ? undefined : end);
}

describe('evaluation names in code outside the evaluations’ own files', () => {
  it('counts the names, blocks and files of recommendations, the linkage attack and attribute inference', () => {
    expect([...NAMES].sort()).toEqual(['attack', 'attack.csv', 'infer', 'infer.csv', 'recommend', 'recommend.csv']);
  });

  it(`are at most ${CAP}, each file listed in docs/ARCHITECTURE.md with why`, () => {
    const found = outsideUnits();
    expect(found.length, found.join('\n')).toBeLessThanOrEqual(CAP);
    const section = evaluationsSection();
    const unlisted = [...new Set(found.map((f) => f.replace(/:\d+ .*$/, '')))].filter((file) => !section.includes(file));
    expect(unlisted).toEqual([]);
  });

  it('finds literals in every quote, not in comments, identifiers or own files (the count can fail)', () => {
    const text = ["// 'attack' in a comment", "const a = 'attack';", 'const b = "recommend.csv";', 'const c = `recommend`;', 'const attack = 1;', "const d = { recommend: 'x' };"].join('\n');
    expect(nameLiterals('x.ts', text, NAMES)).toEqual(["x.ts:2 'attack'", "x.ts:3 'recommend.csv'", "x.ts:4 'recommend'"]);
    expect(ownFile('src/evaluations/attack/rows.ts')).toBe(true);
    expect(ownFile('src/cli/tableAttack.ts')).toBe(true);
    expect(ownFile('src/machinery/outputs.ts')).toBe(false);
  });
});
