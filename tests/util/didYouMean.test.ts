import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { closestWords, didYouMean, suggestKey } from '../../src/util/didYouMean.js';
import { ROOT } from '../helpers/cli.js';

const MECHANISMS = ['exact', 'lsh', 'lshrr', 'laplsh', 'rappor', 'rappor-vector', 'vmf', 'purkayastha'];

describe('did you mean', () => {
  it('lists every word at the smallest distance, the one sharing the longer prefix first', () => {
    // lsh and lshrr are both one edit from lshr; a typo keeps a word's start: lshrr first
    expect(closestWords('lshr', MECHANISMS)).toEqual(['lshrr', 'lsh']);
    expect(didYouMean('lshr', MECHANISMS)).toBe('lshrr or lsh');
    expect(didYouMean('lshr', MECHANISMS, '"')).toBe('"lshrr" or "lsh"');
    // the order of the known words does not decide it
    expect(closestWords('lshr', [...MECHANISMS].reverse())).toEqual(['lshrr', 'lsh']);
    // one closest word: that one alone
    expect(didYouMean('lshrrr', MECHANISMS)).toBe('lshrr');
    expect(didYouMean('tirals', ['trials', 'dims'])).toBe('trials');
    // at most three, the last after "or"
    expect(didYouMean('ab', ['abc', 'abd', 'abe', 'abf'], '"')).toBe('"abc", "abd" or "abe"');
  });

  it('suggests nothing for a word that is no plausible typo', () => {
    expect(didYouMean('zzzzzz', ['trials', 'dims'])).toBeNull();
    expect(didYouMean(' ', ['k'])).toBeNull();
    expect(closestWords('lshr', [])).toEqual([]);
  });

  it('quotes config keys, the paper’s terms included', () => {
    expect(suggestKey('n', [], ['dims', 'name'])).toBe('"dims"');
    expect(suggestKey('kapa', [], ['kappa', 'k'])).toBe('"kappa"');
  });

  it('every message of src/ puts its quotes around each suggested word, not around the list', () => {
    // `(did you mean "${guess}"?)` would print `"lshrr" or "lsh"` as one quoted word
    const files = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
    const offenders = files(join(ROOT, 'src')).filter((f) => /did you mean ["'`]\$\{/i.test(readFileSync(f, 'utf8')));
    expect(offenders).toEqual([]);
  });
});
