/**
 * No function in src/ is longer than 100 lines (a function that does several jobs is split into
 * named stages). Functions are found with the TypeScript compiler's own parser: declarations,
 * methods, constructors, function expressions and arrow functions. Exceptions, by file and name,
 * would be listed in ALLOWED with the reason (the WebAssembly text is a .wat file, not a function).
 */
import { describe, expect, it } from 'vitest';
import ts from 'typescript';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ROOT } from './helpers/cli.js';

const LIMIT = 100;
const ALLOWED = new Set<string>([]);

function* sources(dir: string): Generator<string> {
  for (const f of readdirSync(dir)) {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) yield* sources(p);
    else if (p.endsWith('.ts')) yield p;
  }
}

/** Every function of a source text longer than `limit` lines, as `file:line name (n lines)`. */
function longFunctions(file: string, text: string, limit: number): string[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = sf.getLineAndCharacterOfPosition(node.getStart()).line;
      const last = sf.getLineAndCharacterOfPosition(node.getEnd()).line;
      const parent = node.parent;
      const name = node.name?.getText(sf) ?? (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) ? parent.name.getText(sf) : '(anonymous)');
      if (last - first + 1 > limit) found.push(`${file}:${first + 1} ${name} (${last - first + 1} lines)`);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

describe('function length', () => {
  it(`no function in src/ is over ${LIMIT} lines`, () => {
    const long: string[] = [];
    for (const file of sources(join(ROOT, 'src'))) {
      const rel = relative(ROOT, file);
      long.push(...longFunctions(rel, readFileSync(file, 'utf8'), LIMIT).filter((f) => !ALLOWED.has(f.replace(/:\d+ /, ' ').replace(/ \(\d+ lines\)$/, ''))));
    }
    expect(long).toEqual([]);
  });

  it('finds a long function (the check can fail)', () => {
    const body = Array.from({ length: LIMIT }, (_, i) => `  const v${i} = ${i};`).join('\n');
    const text = `export function big(): number {\n${body}\n  return 0;\n}\nconst small = () => 1;\n`;
    expect(longFunctions('x.ts', text, LIMIT)).toEqual([`x.ts:1 big (${LIMIT + 3} lines)`]);
  });
});
