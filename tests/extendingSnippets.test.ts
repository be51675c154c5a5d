/**
 * The code of docs/EXTENDING.md compiles: every ```ts and ```js snippet, each written to the file
 * its first line names (`// src/data/formats/jsonl-visits.ts`), in a folder inside the repo that
 * stands beside the real tree (tsconfig `rootDirs`: `../interactions.js` from the snippet's
 * src/data/formats/ is the project's src/data/interactions.ts; `lshdp` is src/index.ts), is
 * type-checked by tsc (its compiler API, on a tsconfig extending the project's) against the project's sources. A snippet whose imports are missing, whose
 * calls do not match the code (`rows.add(user, item, value)` with names where ids go) or that
 * names no file fails here, with the line of the doc it is at.
 */
import { describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { ROOT } from './helpers/cli.js';

const DOC = join(ROOT, 'docs', 'EXTENDING.md');

interface Snippet {
  lang: 'ts' | 'js';
  /** the file it names, relative to the repo (`src/mechanisms/zeroed/facts.ts`, `my-mechanism.mjs`) */
  file: string | null;
  /** the doc's line of the snippet's first code line (1-based) */
  line: number;
  code: string;
}

/** Every ```ts and ```js block of a Markdown text, with the file its first line names. */
function snippets(markdown: string): Snippet[] {
  const out: Snippet[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(ts|js)\s*$/.exec(lines[i]!);
    if (!open) continue;
    const end = lines.indexOf('```', i + 1);
    const code = lines.slice(i + 1, end).join('\n');
    const named = /^\/\/ ([\w./-]+\.(?:ts|mjs|js))\s*$/.exec(lines[i + 1] ?? '');
    out.push({ lang: open[1] as 'ts' | 'js', file: named ? named[1]! : null, line: i + 2, code: `${code}\n` });
    i = end;
  }
  return out;
}

/** The import specifiers of a module's text, each resolved against `from` (a file of the repo) when relative. */
function resolvedImports(code: string, from: string): string {
  return code.replace(/(from |import\(|declare module )'(\.[^']+)'/g, (_m, head: string, spec: string) => `${head}'${relative(ROOT, resolve(dirname(join(ROOT, from)), spec))}'`);
}

describe('docs/EXTENDING.md', () => {
  const all = snippets(readFileSync(DOC, 'utf8'));

  it('every snippet names the file it is, as its first line', () => {
    expect(all.length).toBeGreaterThanOrEqual(4);
    expect(all.filter((s) => s.file === null).map((s) => `docs/EXTENDING.md:${s.line}`)).toEqual([]);
    expect(new Set(all.map((s) => s.file)).size).toBe(all.length);
  });

  it('every snippet type-checks with tsc against the project’s sources', () => {
    // inside the repo, so that zod, @types/node and the project's tsconfig are found as in src/
    const dir = mkdtempSync(join(ROOT, '.doc-snippets-'));
    try {
      const files = all.map((s) => {
        const path = join(dir, s.file!);
        mkdirSync(dirname(path), { recursive: true });
        writeFileSync(path, s.code);
        return path;
      });
      const tsconfig = {
        extends: join(ROOT, 'tsconfig.json'),
        compilerOptions: {
          noEmit: true,
          incremental: false,
          tsBuildInfoFile: null,
          rootDir: ROOT,
          // the snippets' folder stands over the repo: their relative imports reach src/
          rootDirs: [ROOT, dir],
          paths: { lshdp: [join(ROOT, 'src', 'index.ts')] },
          allowJs: true,
          checkJs: true,
        },
        files,
      };
      writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2));
      // tsc's own checker on that tsconfig; only the snippets are checked (src/ is lint's), which
      // takes seconds where a whole-program `tsc -p` takes most of a minute on 2 cores
      const config = ts.getParsedCommandLineOfConfigFile(
        join(dir, 'tsconfig.json'),
        {},
        { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => expect.fail(ts.flattenDiagnosticMessageText(d.messageText, '\n')) },
      )!;
      const program = ts.createProgram({ rootNames: config.fileNames, options: config.options });
      const diagnostics = [
        ...config.errors,
        ...program.getOptionsDiagnostics(),
        ...program.getGlobalDiagnostics(),
        ...files.flatMap((f) => {
          const source = program.getSourceFile(f)!;
          return [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)];
        }),
      ];
      // each told at the doc's line
      const told = diagnostics.map((d) => {
        const text = ts.flattenDiagnosticMessageText(d.messageText, '\n');
        const s = d.file && all.find((x) => resolve(dir, x.file!) === resolve(d.file!.fileName));
        if (!s || d.start === undefined) return text;
        const { line } = d.file!.getLineAndCharacterOfPosition(d.start);
        return `docs/EXTENDING.md:${s.line + line} (${s.file}): ${text}`;
      });
      expect(told, 'tsc on the snippets of docs/EXTENDING.md').toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the data format’s snippet is tests/fixtures/formats/jsonl-visits.ts, which tests/data/formatUnit.test.ts runs through lshdp run', () => {
    const doc = all.find((s) => s.file === 'src/data/formats/jsonl-visits.ts');
    expect(doc).toBeDefined();
    const fixturePath = 'tests/fixtures/formats/jsonl-visits.ts';
    const fixture = readFileSync(join(ROOT, fixturePath), 'utf8');
    // the fixture's code from its first import on, the doc's after the line naming its file; import paths as the files they reach
    const body = (code: string, from: string) => resolvedImports(code.slice(code.search(/^import /m)), from);
    expect(body(fixture, fixturePath)).toBe(body(doc!.code, doc!.file!));
  });
});
