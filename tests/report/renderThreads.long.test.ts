import { describe, expect, it } from 'vitest';
import { built, spec, type Render, type Threads } from '../helpers/renderThreads.js';

// The SVG threads (LSHDP_RENDER_THREADS >= 2, an opt-in): the same bytes as this thread's, in any
// number of threads (the default PNG thread is in renderThreads.test.ts).

describe('figures rendered on SVG threads', () => {
  it('gives the SVGs of this thread, byte for byte, in any number of threads', async () => {
    const [{ startRenderThreads }, { renderSvg, svgToPng }] = await Promise.all([built<Threads>('renderThreads.js'), built<Render>('render.js')]);
    const specs = [spec('a', [1, 3, 2]), spec('b', [0.5, 0.25]), spec('ξ = 0.5', [4, 4, 5, 1]), spec('d', [2])];
    const here: string[] = [];
    for (const s of specs) here.push(await renderSvg(s));
    expect(new Set(here).size).toBe(specs.length);
    for (const n of [2, 3]) {
      const threads = startRenderThreads(n);
      try {
        expect(threads.threaded).toBe(true);
        expect(await Promise.all(specs.map((s) => threads.render(s)))).toEqual(here);
        // SVG threads make PNGs too
        expect(Buffer.from(await threads.png(here[2]!))).toEqual(Buffer.from(svgToPng(here[2]!)));
      } finally {
        await threads.close();
      }
    }
    expect(startRenderThreads(0)).toBe((await built<Threads>('renderThreads.js')).inThisThread);
    // one thread makes PNGs only: none when no PNG is asked
    expect(startRenderThreads(1, { png: false }).threaded).toBe(false);
  });

  it('refuses a figure with clip paths (vega numbers them per process) and says why', async () => {
    const { startRenderThreads } = await built<Threads>('renderThreads.js');
    const threads = startRenderThreads(2);
    try {
      await expect(threads.render(spec('clipped', [0.5, 2, -1], true))).rejects.toThrow(/clip paths or gradients/);
      // the threads go on
      expect(await threads.render(spec('next', [1, 2]))).toMatch(/^<svg/);
    } finally {
      await threads.close();
    }
  });
});
