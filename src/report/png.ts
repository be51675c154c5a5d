/**
 * SVG → PNG with resvg, apart from vega (render.ts): a thread that only rasterizes
 * (renderThreads.ts) loads this module and resvg's native binding, nothing else of the report.
 * resvg draws no text unless fonts are loaded, so we hand it DejaVu (the font named in every
 * spec's config) from the usual Debian locations, and fall back to the system fonts when those
 * files are missing.
 */
import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type * as ResvgJs from '@resvg/resvg-js';

/** The font every figure names (specs.ts) and the PNG renderer loads from /usr/share/fonts (Debian's fonts-dejavu-core), so SVG and PNG agree. */
export const FONT = 'DejaVu Sans';

/** resvg (a CommonJS native module: it loads synchronously, so svgToPng stays synchronous). */
let resvg: typeof ResvgJs | undefined;
function loadResvg(): typeof ResvgJs {
  resvg ??= createRequire(import.meta.url)('@resvg/resvg-js') as typeof ResvgJs;
  return resvg;
}

/** Loads resvg now (a rasterizing thread, before its first figure). */
export function preloadResvg(): void {
  loadResvg();
}

const FONT_DIRS = ['/usr/share/fonts/truetype/dejavu', '/usr/share/fonts/TTF', '/usr/share/fonts/dejavu'];

/** DejaVu Sans files (regular, bold, oblique) where the OS keeps them; empty when none are found. */
export function dejaVuFontFiles(): string[] {
  for (const dir of FONT_DIRS) {
    if (!existsSync(dir)) continue;
    const files = readdirSync(dir).filter((f) => /^DejaVuSans(-Bold|-Oblique|-BoldOblique)?\.ttf$/.test(f));
    if (files.length) return files.sort().map((f) => join(dir, f));
  }
  return [];
}

/** PNG at `scale` × the SVG's size (2 gives print-quality figures). */
export function svgToPng(svg: string, scale = 2): Uint8Array {
  const fontFiles = dejaVuFontFiles();
  const { Resvg } = loadResvg();
  const resvg = new Resvg(svg, {
    background: 'white',
    fitTo: { mode: 'zoom', value: scale },
    font: {
      fontFiles,
      loadSystemFonts: fontFiles.length === 0,
      defaultFontFamily: FONT,
      sansSerifFamily: FONT,
    },
  });
  return resvg.render().asPng();
}
