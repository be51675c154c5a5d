import { describe, it, expect } from 'vitest';
import { cpSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../helpers/cli.js';
import { readResultsFolder, writeFigures } from '../../src/report/index.js';
import { RENDERED_FILE, RenderedFigures, specHash } from '../../src/report/rendered.js';

const FIXTURE = join(ROOT, 'tests/fixtures/results/small');

function copyFixture(): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'lshdp-rendered-')), 'small');
  cpSync(FIXTURE, dir, { recursive: true });
  return dir;
}

const mtimes = (dir: string, ids: string[]) => ids.map((id) => statSync(join(dir, 'figures', `${id}.svg`)).mtimeMs);

describe('figures kept when their spec did not change (a run’s report)', () => {
  it('a second run keeps every figure; a changed spec, a missing file or a plot renders again, with the same bytes', async () => {
    const dir = copyFixture();
    const opts = { quiet: true, formats: ['vl', 'svg'] as ('vl' | 'svg')[], reuse: true };
    const figs = await writeFigures(readResultsFolder(dir), opts);
    const ids = figs.map((f) => f.id);
    const svg = Object.fromEntries(ids.map((id) => [id, readFileSync(join(dir, 'figures', `${id}.svg`), 'utf8')]));
    const first = mtimes(dir, ids);
    await new Promise((r) => setTimeout(r, 20));
    await writeFigures(readResultsFolder(dir), opts);
    expect(mtimes(dir, ids)).toEqual(first);
    // a missing file is rendered again; so is a figure whose entry does not match its spec
    rmSync(join(dir, 'figures', `${ids[0]}.svg`));
    const stamps = JSON.parse(readFileSync(join(dir, 'figures', RENDERED_FILE), 'utf8'));
    stamps.figures[ids[1]].spec = 'another';
    writeFileSync(join(dir, 'figures', RENDERED_FILE), JSON.stringify(stamps));
    await writeFigures(readResultsFolder(dir), opts);
    const again = mtimes(dir, ids);
    expect(again[0]).not.toBe(first[0]);
    expect(again[1]).not.toBe(first[1]);
    expect(again.slice(2)).toEqual(first.slice(2));
    for (const id of ids) expect(readFileSync(join(dir, 'figures', `${id}.svg`), 'utf8')).toBe(svg[id]);
    // lshdp plot (no reuse) renders every figure and drops the entries of those it wrote
    await writeFigures(readResultsFolder(dir), { quiet: true, formats: ['vl', 'svg'] });
    expect(Object.keys(JSON.parse(readFileSync(join(dir, 'figures', RENDERED_FILE), 'utf8')).figures)).toEqual([]);
  });

  it('an entry holds only for its spec, its formats and files that are there', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lshdp-rendered-'));
    writeFileSync(join(dir, 'a.svg'), '<svg/>');
    const r = new RenderedFigures(dir);
    expect(r.current('a', specHash('x'), ['svg'], ['a.svg'])).toBe(false);
    await r.record('a', specHash('x'), ['svg']);
    const read = new RenderedFigures(dir);
    expect(read.current('a', specHash('x'), ['svg'], ['a.svg'])).toBe(true);
    expect(read.current('a', specHash('y'), ['svg'], ['a.svg'])).toBe(false);
    expect(read.current('a', specHash('x'), ['svg', 'png'], ['a.svg', 'a.png'])).toBe(false);
    await read.forget('a');
    expect(new RenderedFigures(dir).current('a', specHash('x'), ['svg'], ['a.svg'])).toBe(false);
    // stamps of another renderer count for nothing
    writeFileSync(join(dir, RENDERED_FILE), JSON.stringify({ renderer: 'lshdp@0.0.0', figures: { a: { spec: specHash('x'), formats: ['svg'] } } }));
    expect(new RenderedFigures(dir).current('a', specHash('x'), ['svg'], ['a.svg'])).toBe(false);
  });

  it('saves that overlap (a figure finished while the next is forgotten) land in the order they were asked', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lshdp-rendered-'));
    for (const f of ['a.svg', 'b.svg', 'c.svg']) writeFileSync(join(dir, f), '<svg/>');
    const r = new RenderedFigures(dir);
    await r.record('b', specHash('b'), ['svg']);
    await Promise.all([r.record('a', specHash('a'), ['svg']), r.forget('b'), r.record('c', specHash('c'), ['svg'])]);
    const read = new RenderedFigures(dir);
    expect(['a', 'b', 'c'].map((id) => read.current(id, specHash(id), ['svg'], [`${id}.svg`]))).toEqual([true, false, true]);
  });
});
