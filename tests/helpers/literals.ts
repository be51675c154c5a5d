/**
 * What the name-literal tests share (mechanisms, evaluations): the TypeScript files under a folder,
 * and the string literals of a file equal to one of a set of names, found with the TypeScript
 * compiler's own parser (not comments, not identifiers; single, double or backtick quotes without
 * substitutions).
 */
import ts from 'typescript';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export function* tsSources(dir: string): Generator<string> {
  for (const f of readdirSync(dir)) {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) yield* tsSources(p);
    else if (p.endsWith('.ts')) yield p;
  }
}

/** Every literal of `text` equal to one of `names`, as `file:line 'name'`. */
export function nameLiterals(file: string, text: string, names: ReadonlySet<string>): string[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && names.has(node.text)) {
      found.push(`${file}:${sf.getLineAndCharacterOfPosition(node.getStart()).line + 1} '${node.text}'`);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}
