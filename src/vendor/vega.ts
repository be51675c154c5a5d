/**
 * vega and vega-lite's `compile`, from the build's one-file bundle of them where there is one
 * (scripts/bundle.mjs: dist/vendor/bundled-vega.mjs), else from the packages: the same code either
 * way. The packages are about 250 ES module files (d3-geo-projection alone 109), whose resolution
 * and compilation cost a run with a report about 0.2 CPU-s; the bundle loads in about a third.
 * An ES module (vega-canvas has a top-level await), so it is imported, never required.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type * as Vega from 'vega';
import type * as VegaLite from 'vega-lite';

export interface Renderers {
  vega: typeof Vega;
  compile: typeof VegaLite.compile;
}

/** The bundle's URL where the build made it, else null. */
export function vegaBundleUrl(): URL | null {
  // '../vendor/': this folder, also from the CLI's bundle (dist/bundle/, scripts/bundle.mjs)
  const url = new URL('../vendor/bundled-vega.mjs', import.meta.url);
  return existsSync(fileURLToPath(url)) ? url : null;
}

export async function importRenderers(): Promise<Renderers> {
  const bundle = vegaBundleUrl();
  if (bundle) return (await import(bundle.href)) as Renderers;
  const [vega, vl] = await Promise.all([import('vega'), import('vega-lite')]);
  return { vega, compile: vl.compile };
}
