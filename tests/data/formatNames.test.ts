/**
 * What a data format is lives in its unit (src/data/formats/): outside src/data/, code asks the
 * unit and does not test the format's name. This test counts the string literals in src/ code
 * outside src/data/ equal to a built-in format's name (single, double or backtick quotes; comments
 * are not code), plus those a prefix test such as startsWith('movielens') compares with, and holds
 * the count at or under CAP. The literals that remain are listed in docs/ARCHITECTURE.md ("Data
 * formats") with why. Literals are found with the TypeScript compiler's parser, as
 * tests/functionLength.test.ts finds functions.
 */
import { describe, expect, it } from 'vitest';
import ts from 'typescript';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { ROOT } from '../helpers/cli.js';

const CAP = 10;
/** The built-in formats' names, written out (not imported) so that the count does not follow the code it measures. */
const FORMAT_NAMES = ['movielens-csv', 'movielens-100k', 'movielens-1m', 'movielens-10m', 'foursquare-www19', 'foursquare-tsmc', 'interactions', 'synthetic'];
const PREFIX_METHODS = new Set(['startsWith', 'endsWith', 'includes']);

function* sources(dir: string): Generator<string> {
  for (const f of readdirSync(dir)) {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) yield* sources(p);
    else if (p.endsWith('.ts')) yield p;
  }
}

/** Whether `node` is the first argument of a call such as `x.startsWith(node)`. */
function isPrefixTestArgument(node: ts.Node): boolean {
  const call = node.parent;
  if (!call || !ts.isCallExpression(call) || call.arguments[0] !== node) return false;
  return ts.isPropertyAccessExpression(call.expression) && PREFIX_METHODS.has(call.expression.name.text);
}

/** Every string literal of `text` equal to a format's name (or a prefix test against one), as `file:line 'literal'`. */
function formatNameLiterals(file: string, text: string, names: readonly string[] = FORMAT_NAMES): string[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
      const s = node.text;
      const counts = names.includes(s) || (s.length > 0 && isPrefixTestArgument(node) && names.some((n) => n.startsWith(s)));
      if (counts) found.push(`${file}:${sf.getLineAndCharacterOfPosition(node.getStart()).line + 1} '${s}'`);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

describe('data-format names outside src/data/', () => {
  it(`at most ${CAP} string literals in src/ outside src/data/ equal a format's name`, () => {
    const found: string[] = [];
    for (const file of sources(join(ROOT, 'src'))) {
      const rel = relative(ROOT, file).split(sep).join('/');
      if (rel.startsWith('src/data/')) continue;
      found.push(...formatNameLiterals(rel, readFileSync(file, 'utf8')));
    }
    if (process.env.LSHDP_SHOW_FORMAT_LITERALS) console.log(`${found.length}\n${found.join('\n')}`);
    expect(found.length, found.join('\n')).toBeLessThanOrEqual(CAP);
  });

  it('counts quotes of each kind and prefix tests, not comments or longer strings (the check can fail)', () => {
    const text = [
      "// 'synthetic' in a comment",
      '/** `movielens-1m` in a doc comment */',
      "const a = 'synthetic';",
      'const b = "foursquare-tsmc";',
      'const c = `interactions`;',
      "const d = f.startsWith('movielens');",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a template literal with a substitution, as source text
      'const e = `format ${x}`;',
      "const g = 'a synthetic data set';",
      "const h = { 'movielens-csv': 1 };",
    ].join('\n');
    expect(formatNameLiterals('x.ts', text)).toEqual(["x.ts:3 'synthetic'", "x.ts:4 'foursquare-tsmc'", "x.ts:5 'interactions'", "x.ts:6 'movielens'", "x.ts:9 'movielens-csv'"]);
  });
});
