// The rendering threads' tests (tests/report/renderThreads*.test.ts): the built modules, since the
// threads run dist/report/renderWorker.js (from the sources the figures render in this thread), and
// a small line figure.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from './cli.js';
import type { VlSpec } from '../../src/report/specs.js';

export type Threads = typeof import('../../src/report/renderThreads.js');
export type Render = typeof import('../../src/report/render.js');
export const built = <T>(file: string): Promise<T> => import(/* @vite-ignore */ pathToFileURL(join(ROOT, 'dist', 'report', file)).href);

/** A line figure of `values`; with `clip`, clipped to [0, 1] (vega numbers its clip paths per process). */
export const spec = (title: string, values: number[], clip = false): VlSpec =>
  ({
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title,
    data: { values: values.map((y, x) => ({ x, y })) },
    mark: { type: 'line', ...(clip ? { clip: true } : {}) },
    encoding: { x: { field: 'x', type: 'quantitative' }, y: { field: 'y', type: 'quantitative', ...(clip ? { scale: { domain: [0, 1] } } : {}) } },
  }) as unknown as VlSpec;
