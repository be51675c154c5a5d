// The README's figure images (docs/img/): a figure of a results folder cut to the README's panels
// (n 100 and 1000, κ 20 and 50; every row of panels the figure has), rendered as the report
// renders it (PNG at 2× the SVG). Run `npm run build` first, then for example
//   node scripts/readme-figures.mjs RESULTS/shared-movielens-small-attack frontier-movielens-small matched-movielens-small
// which writes docs/img/<id>.png from RESULTS/.../figures/<id>.vl.json.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderSvg, svgToPng } from '../dist/report/render.js';

const N = [100, 1000];
const KAPPA = [20, 50];
const keep = (r) => (r.n === undefined || N.includes(r.n)) && (r.kappa === undefined || r.kappa === null || KAPPA.includes(r.kappa));
const panel = (p) => KAPPA.some((k) => N.some((n) => p === `κ = ${k}, n = ${n}`));

/** A row of panels (a facet block) with only the README's panels: its data and its panel order. */
function cut(block) {
  if (!block.facet) return block;
  return { ...block, data: { values: block.data.values.filter(keep) }, facet: { ...block.facet, sort: block.facet.sort.filter(panel) }, columns: N.length };
}

const [dir, ...ids] = process.argv.slice(2);
if (!dir || ids.length === 0) {
  console.error('usage: node scripts/readme-figures.mjs RESULTS_DIR FIGURE_ID...');
  process.exit(2);
}
const out = fileURLToPath(new URL('../docs/img/', import.meta.url));
for (const id of ids) {
  const spec = JSON.parse(readFileSync(join(dir, 'figures', `${id}.vl.json`), 'utf8'));
  const shown = spec.vconcat ? { ...spec, vconcat: spec.vconcat.map(cut) } : cut(spec);
  writeFileSync(join(out, `${id}.png`), svgToPng(await renderSvg(shown)));
  console.log(`wrote docs/img/${id}.png`);
}
