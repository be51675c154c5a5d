import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ROOT } from './helpers/cli.js';

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[`*_]/g, '')
    .replace(/[^\p{L}\p{N} -]/gu, '')
    .replace(/ /g, '-');
}

function anchors(file: string): Set<string> {
  const out = new Set<string>();
  let fence = false;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.startsWith('```')) fence = !fence;
    const m = !fence && /^#{1,6} (.+)$/.exec(line);
    if (m) out.add(slug(m[1]));
  }
  return out;
}

/** Relative Markdown links `[text](target)` of a file, outside code. */
function links(file: string): string[] {
  const text = readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]).filter((t) => !/^[a-z]+:/.test(t));
}

const DOCS = [
  'README.md',
  'CHANGELOG.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => join('docs', f)),
];

describe('the README and the docs', () => {
  it('the README is a five-minute read: at most 250 lines', () => {
    expect(readFileSync(join(ROOT, 'README.md'), 'utf8').trimEnd().split('\n').length).toBeLessThanOrEqual(250);
  });

  it.each(DOCS)('%s: every relative link reaches a file, and its #anchor a heading', (doc) => {
    const file = join(ROOT, doc);
    for (const link of links(file)) {
      const [path, anchor] = link.split('#');
      const target = path === '' ? file : join(dirname(file), path);
      expect(existsSync(target), `${doc}: ${link}`).toBe(true);
      if (anchor && target.endsWith('.md')) expect(anchors(target), `${doc}: ${link}`).toContain(anchor);
    }
  });

  it('the README links every page the long sections moved to', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    for (const page of [
      'docs/SWEEPS.md',
      'docs/ACCOUNTING.md',
      'docs/RESULTS.md',
      'docs/EXTENDING.md',
      'docs/LIBRARY.md',
      'docs/RELEASING.md',
      'docs/SPEED.md',
      'docs/DECISIONS.md',
      'CHANGELOG.md',
      'docs/DATA.md',
    ]) {
      expect(readme, page).toContain(`](${page}`);
    }
  });

  it('a planted broken link or anchor is caught', () => {
    expect(anchors(join(ROOT, 'docs', 'DATA.md'))).not.toContain('no-such-heading');
    expect(slug("Getting the paper's data")).toBe('getting-the-papers-data');
    expect(slug('`lshdp data inspect`')).toBe('lshdp-data-inspect');
  });
});
