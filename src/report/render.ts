/**
 * Headless rendering: Vega-Lite spec → Vega → SVG (vega's string renderer, no browser), and
 * SVG → PNG with resvg (png.ts).
 */
import type * as Vega from 'vega';
import type { VlSpec } from './specs.js';
import { patchDashLegends } from './specs.js';
import { importRenderers, type Renderers } from '../vendor/vega.js';

// SVG → PNG lives in png.ts, which loads no vega (a thread that only rasterizes: renderThreads.ts)
export { dejaVuFontFiles, svgToPng } from './png.js';

/**
 * The renderers load with the first figure, not with this module: vega (~250 modules, or the
 * build's one file of them, src/vendor/vega.ts; and a
 * top-level await in vega-canvas) and resvg's native binding would otherwise load with every
 * importer of the report, the library entry included, where a plugin that imports `lshdp` in a
 * worker thread (require of an ES module) cannot take a top-level await.
 */
let renderers: Promise<Renderers> | undefined;
function loadRenderers(): Promise<Renderers> {
  renderers ??= importRenderers();
  return renderers;
}

/** Starts loading the renderers now (a rendering thread, before its first figure). */
export function preloadRenderers(): void {
  loadRenderers().catch(() => undefined);
}

/**
 * Width of a string in DejaVu Sans, in em, from its glyph classes (advance widths of the font:
 * narrow ≈ 0.3 em, digits 0.64, lower case ≈ 0.6, upper case ≈ 0.72, m/w ≈ 0.95). Without a
 * canvas vega guesses 0.8 em per character, which over-sizes titles and legends and truncates
 * labels; this estimate is within a few percent for ordinary text.
 */
export function dejaVuEm(text: string, bold = false): number {
  let w = 0;
  for (const ch of text) {
    if (/[ijlI.,:;'!|` ]/.test(ch)) w += 0.32;
    else if (/[ftr()[\]{}/-]/.test(ch)) w += 0.41;
    else if (/[mwMW%]/.test(ch)) w += 0.95;
    else if (/[0-9]/.test(ch)) w += 0.64;
    else if (/[A-Z]/.test(ch)) w += 0.72;
    else w += 0.6;
  }
  return bold ? w * 1.1 : w;
}

interface TextItem {
  text?: unknown;
  fontSize?: number;
  fontWeight?: string | number;
  limit?: number;
}

let metricsInstalled = false;
/** Replace vega's canvas-less text width guess with the DejaVu estimate (process-wide, idempotent). */
function installTextMetrics(vega: typeof Vega): void {
  if (metricsInstalled) return;
  metricsInstalled = true;
  // exported at runtime by vega (from vega-scenegraph) but absent from its type declarations
  const metrics = (vega as unknown as { textMetrics: unknown }).textMetrics as { width: (item: TextItem, text?: unknown) => number };
  metrics.width = (item: TextItem, text?: unknown) => {
    const value = text ?? item.text;
    const lines = Array.isArray(value) ? value.map(String) : [value == null ? '' : String(value)];
    const size = item.fontSize ?? 11;
    const bold = item.fontWeight === 'bold' || Number(item.fontWeight) >= 600;
    return Math.ceil(Math.max(...lines.map((l) => dejaVuEm(l, bold))) * size);
  };
}

export async function renderSvg(spec: VlSpec): Promise<string> {
  const { vega, compile } = await loadRenderers();
  installTextMetrics(vega);
  // vega-lite's TopLevelSpec type is far stricter than our plain objects; the schema test checks them
  // warnings such as "Maximum optimization runs reached" are about vega-lite internals, not the user's data
  const quietLogger = vega.logger(vega.Error);
  const vgSpec = patchDashLegends(compile(spec as unknown as Parameters<typeof compile>[0], { logger: quietLogger }).spec);
  const view = new vega.View(vega.parse(vgSpec), { renderer: 'none', logLevel: vega.Error });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}
