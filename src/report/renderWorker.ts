/**
 * A thread that renders figures (src/report/renderThreads.ts): Vega-Lite spec in, SVG out, with
 * the renderer of the main thread (render.ts), so the same bytes.
 */
import { parentPort } from 'node:worker_threads';
import { preloadRenderers, renderSvg } from './render.js';
import type { VlSpec } from './specs.js';

preloadRenderers(); // vega loads while the main thread tests the claims

// one figure after another, in the order they came
let queue: Promise<void> = Promise.resolve();
parentPort?.on('message', (m: { id: number; spec: VlSpec }) => {
  queue = queue.then(() =>
    renderSvg(m.spec).then(
      (svg) => parentPort?.postMessage({ id: m.id, svg }),
      (e: unknown) => parentPort?.postMessage({ id: m.id, error: e instanceof Error ? (e.stack ?? e.message) : String(e) }),
    ),
  );
});
