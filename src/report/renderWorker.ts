/**
 * A thread that renders figures (src/report/renderThreads.ts): a Vega-Lite spec in, its SVG out,
 * or an SVG in, its PNG out, with the renderers of the main thread (render.ts, png.ts), so the same
 * bytes. A thread that only makes PNGs (workerData.svg false) never loads vega.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { preloadResvg, svgToPng } from './png.js';
import type { VlSpec } from './specs.js';

const svgToo = (workerData as { svg?: boolean } | null)?.svg !== false;
// the renderers load while the main thread tests the claims
const render = svgToo ? import('./render.js') : null;
render?.then((r) => r.preloadRenderers()).catch(() => undefined);
try {
  preloadResvg();
} catch {
  // not installed: said by the first PNG asked
}

const message = (e: unknown): string => (e instanceof Error ? (e.stack ?? e.message) : String(e));

// one figure after another, in the order they came
let queue: Promise<void> = Promise.resolve();
parentPort?.on('message', (m: { id: number; spec?: VlSpec; svg?: string }) => {
  queue = queue.then(async () => {
    try {
      if (m.svg !== undefined) parentPort?.postMessage({ id: m.id, png: svgToPng(m.svg) });
      else {
        const r = await (render ?? import('./render.js'));
        parentPort?.postMessage({ id: m.id, svg: await r.renderSvg(m.spec!) });
      }
    } catch (e) {
      parentPort?.postMessage({ id: m.id, error: message(e) });
    }
  });
});
