import { describe, expect, it } from 'vitest';
import { cpSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../helpers/cli.js';
import { built, spec, type Render, type Threads } from '../helpers/renderThreads.js';

describe('how many rendering threads a run starts', () => {
  it('one (the PNGs) unless LSHDP_RENDER_THREADS says otherwise; none on one core; never more than the cores', async () => {
    const { renderThreadsWanted } = await import('../../src/report/renderThreads.js');
    expect(renderThreadsWanted({}, 2)).toBe(1);
    expect(renderThreadsWanted({ LSHDP_RENDER_THREADS: '' }, 2)).toBe(1);
    expect(renderThreadsWanted({ LSHDP_RENDER_THREADS: 'x' }, 2)).toBe(1);
    expect(renderThreadsWanted({ LSHDP_RENDER_THREADS: '-1' }, 2)).toBe(1);
    expect(renderThreadsWanted({ LSHDP_RENDER_THREADS: '0' }, 2)).toBe(0);
    expect(renderThreadsWanted({ LSHDP_RENDER_THREADS: '1' }, 2)).toBe(1);
    expect(renderThreadsWanted({ LSHDP_RENDER_THREADS: '2' }, 2)).toBe(2);
    expect(renderThreadsWanted({ LSHDP_RENDER_THREADS: '64' }, 4)).toBe(4);
    expect(renderThreadsWanted({}, 1)).toBe(0);
    expect(renderThreadsWanted({ LSHDP_RENDER_THREADS: '2' }, 1)).toBe(0);
    // a run of --threads 1 draws in its main thread, unless told otherwise
    expect(renderThreadsWanted({}, 2, 1)).toBe(0);
    expect(renderThreadsWanted({}, 2, 2)).toBe(1);
    expect(renderThreadsWanted({ LSHDP_RENDER_THREADS: '1' }, 2, 1)).toBe(1);
  });
});

// The SVG threads (LSHDP_RENDER_THREADS >= 2, not the default) are held to these bytes in
// renderThreads.long.test.ts: each of their threads loads vega, seconds of the fast tier.
describe('figures rendered on threads', () => {
  it('gives the PNGs of this thread, byte for byte, on the PNG thread (and in this one, those it has not started)', async () => {
    const [{ startRenderThreads }, { renderSvg, svgToPng }] = await Promise.all([built<Threads>('renderThreads.js'), built<Render>('render.js')]);
    const svgs = await Promise.all([spec('a', [1, 3, 2]), spec('ξ = 0.5', [4, 4, 5, 1]), spec('c', [2, 0])].map((s) => renderSvg(s)));
    const here = svgs.map((s) => Buffer.from(svgToPng(s)));
    const threads = startRenderThreads(1);
    try {
      expect(threads.threaded).toBe(false);
      const asked = svgs.map((s) => threads.png(s));
      // the third waits (a thread takes two at once) and is made in this thread
      await threads.drain();
      const there = await Promise.all(asked);
      expect(there.map((p) => Buffer.from(p))).toEqual(here);
      // an SVG resvg cannot read fails its own PNG only
      await expect(threads.png('not an svg')).rejects.toThrow();
      expect(Buffer.from(await threads.png(svgs[0]!))).toEqual(here[0]);
    } finally {
      await threads.close();
    }
    // a thread that stops with PNGs asked (here: terminated) leaves them to this thread
    const stopped = startRenderThreads(1);
    const asked = svgs.map((s) => stopped.png(s));
    await stopped.close();
    await stopped.drain();
    expect((await Promise.all(asked)).map((p) => Buffer.from(p))).toEqual(here);
  });
});

describe('a report written with rendering threads', () => {
  it('writes the files of the serial report, byte for byte, the record of rendered figures included', async () => {
    type Report = typeof import('../../src/report/index.js');
    const [{ startRenderThreads, inThisThread }, { readResultsFolder, writeFigures }] = await Promise.all([built<Threads>('renderThreads.js'), built<Report>('index.js')]);
    const fixture = join(ROOT, 'tests/fixtures/results/small');
    const write = async (threads: number) => {
      const dir = join(mkdtempSync(join(tmpdir(), 'lshdp-threads-')), 'small');
      cpSync(fixture, dir, { recursive: true });
      const renderer = threads === 0 ? inThisThread : startRenderThreads(threads);
      try {
        await writeFigures(readResultsFolder(dir), { quiet: true, reuse: true, renderer });
      } finally {
        await renderer.close();
      }
      const figures = join(dir, 'figures');
      return Object.fromEntries(readdirSync(figures).map((f) => [f, readFileSync(join(figures, f)).toString('base64')]));
    };
    const serial = await write(0);
    expect(Object.keys(serial).filter((f) => f.endsWith('.png')).length).toBeGreaterThan(1);
    expect(Object.keys(serial)).toContain('.lshdp-rendered.json');
    // the default (one PNG thread); SVG threads give the same SVGs and PNGs (above)
    expect(await write(1)).toEqual(serial);
  });
});
