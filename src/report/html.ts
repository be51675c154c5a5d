/**
 * The offline HTML report (index.html): run metadata, every figure (interactive through a LOCAL
 * copy of vega/vega-lite/vega-embed in assets/, so the file opens from disk without network), the
 * tables and the data set summaries. Every string that comes from data or config goes through
 * `escapeHtml`; specs are embedded as JSON with `<` escaped so no data can close the script tag.
 */
import { readFile } from 'node:fs/promises';
import { writeFileAtomic } from '../util/atomic.js';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ResultsFolder } from './read.js';
import { patchDashLegends, type VlSpec } from './specs.js';
import { formatMeanSe, formatNumber, mechanismLabel } from './tables.js';

export function escapeHtml(s: unknown): string {
  return String(s)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** JSON safe inside <script>: no `</script>`, `<!--` or line separators can break out. */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** The browser builds copied next to the report, in load order (vega-embed needs the other two). */
export const ASSET_FILES: { pkg: string; file: string }[] = [
  { pkg: 'vega', file: 'vega.min.js' },
  { pkg: 'vega-lite', file: 'vega-lite.min.js' },
  { pkg: 'vega-embed', file: 'vega-embed.min.js' },
];

/** Copy the UMD builds from node_modules (located through the package's own entry point). */
export async function copyAssets(resultsDir: string): Promise<void> {
  const dest = join(resultsDir, 'assets');
  for (const a of ASSET_FILES) {
    // every entry point of these packages lives in their build/ folder, beside the .min.js
    const entry = fileURLToPath(import.meta.resolve(a.pkg));
    // atomic like every other output: a reader never sees half a library
    await writeFileAtomic(join(dest, a.file), await readFile(join(dirname(entry), a.file)));
  }
}

export interface FigureEntry {
  id: string;
  title: string;
  caption: string;
  spec: VlSpec;
  /** path relative to the results folder, shown when scripts are off */
  svgPath: string;
}

function table(header: string[], rows: string[][], numericFrom = 1): string {
  const th = header.map((h) => `<th>${escapeHtml(h)}</th>`).join('');
  const body = rows
    .map((r) => `<tr>${r.map((c, i) => `<td${i >= numericFrom ? ' class="num"' : ''}>${escapeHtml(c)}</td>`).join('')}</tr>`)
    .join('\n');
  return `<table><thead><tr>${th}</tr></thead><tbody>\n${body}\n</tbody></table>`;
}

function metadataSection(res: ResultsFolder): string {
  const m = res.manifest ?? {};
  const scalar = (v: unknown) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';
  const rows = Object.entries(m)
    .filter(([, v]) => scalar(v))
    .map(([k, v]) => [k, String(v)]);
  const nested = Object.entries(m).filter(([, v]) => !scalar(v) && v !== null && v !== undefined);
  // long lists (the per-cell grid of a big run) are cut: manifest.json has them in full
  const shown = (v: unknown) => (Array.isArray(v) && v.length > 50 ? [...v.slice(0, 50), `… ${v.length - 50} more entries in manifest.json`] : v);
  const details = nested
    .map(([k, v]) => `<details><summary>${escapeHtml(k)}</summary><pre>${escapeHtml(JSON.stringify(shown(v), null, 2))}</pre></details>`)
    .join('\n');
  if (!res.manifest) return '<p>No manifest.json in this folder.</p>';
  return (rows.length ? table(['key', 'value'], rows, 99) : '') + '\n' + details;
}

function datasetsSection(res: ResultsFolder): string {
  if (!res.datasets) return '<p>No datasets.json in this folder.</p>';
  const rows: string[][] = [];
  for (const d of res.datasets) {
    const perDim = Array.isArray(d.perDim) ? d.perDim : [];
    const base = [d.name, d.format, d.users, d.items, d.interactions, d.rowsRead, d.rowsSkipped, d.center].map((v) => String(v ?? ''));
    if (perDim.length === 0) rows.push([...base, '', '', '', '']);
    for (const p of perDim) rows.push([...base, String(p.n), String(p.usersKept), String(p.usersDropped), formatNumber(Number(p.meanNnz), 4)]);
  }
  return table(['data set', 'format', 'users', 'items', 'interactions', 'rows read', 'rows skipped', 'centring', 'n', 'users kept', 'users dropped', 'mean non-zeros'], rows, 2);
}

function utilitySection(res: ResultsFolder): string {
  if (!res.utility) return '<p>No utility.csv in this folder.</p>';
  const rows = res.utility.map((r) => [
    r.dataset, String(r.n), r.kappa === null ? '–' : String(r.kappa), String(r.k),
    mechanismLabel(r.mechanism) + (r.fallback ? ' *' : ''), r.xi === null ? '–' : String(r.xi),
    r.epsilon === null ? '–' : formatNumber(r.epsilon), String(r.trials),
    formatMeanSe(r.lossMean, r.lossSe), r.recallMean === null ? '–' : formatMeanSe(r.recallMean, r.recallSe),
  ]);
  const note = res.utility.some((r) => r.fallback) ? '<p class="note">* fallback: no α exists (d<sup>κ</sup> ≥ δ), ξ = κε.</p>' : '';
  return table(['data set', 'n', 'κ', 'k', 'mechanism', 'ξ', 'ε', 'trials', 'utility loss (mean ± se)', 'recall (mean ± se)'], rows, 1) + note;
}

function budgetsSection(res: ResultsFolder): string {
  if (!res.budgets) return '<p>No budgets.csv in this folder.</p>';
  const rows = res.budgets.map((r) => [
    String(r.d), String(r.delta), String(r.kappa), String(r.xi), r.alpha === null ? '–' : r.alpha.toFixed(6),
    r.epsilon.toFixed(6), r.ldpBudget.toFixed(4), String(Math.round(r.ldpBudget)), r.fallback ? 'yes' : 'no',
  ]);
  return table(['d_θ', 'δ', 'κ', 'ξ', 'α', 'ε', 'κε (LDP)', 'κε rounded', 'fallback'], rows, 0);
}

const STYLE = `
body { font-family: "DejaVu Sans", system-ui, sans-serif; margin: 2em auto; max-width: 1200px; padding: 0 1em; color: #222; }
h1 { font-size: 1.6em; } h2 { margin-top: 2em; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; font-size: 0.85em; margin: 0.5em 0; }
th, td { border: 1px solid #ccc; padding: 2px 6px; } th { background: #f3f3f3; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
figure { margin: 1.5em 0; } figcaption { color: #444; font-size: 0.9em; max-width: 60em; }
pre { background: #f7f7f7; padding: 0.5em; overflow-x: auto; font-size: 0.8em; }
.note { font-size: 0.85em; color: #444; } .err { color: #b00; }
`;

export function buildHtml(res: ResultsFolder, figures: FigureEntry[]): string {
  const figHtml = figures
    .map(
      (f) => `<figure>
<div id="${escapeHtml(f.id)}" class="vega-figure"><noscript><img src="${escapeHtml(f.svgPath)}" alt="${escapeHtml(f.title)}"></noscript></div>
<figcaption>${escapeHtml(f.caption)} (<a href="${escapeHtml(f.svgPath)}">SVG</a>)</figcaption>
</figure>`,
    )
    .join('\n');
  const specs = Object.fromEntries(figures.map((f) => [f.id, f.spec]));
  const scripts = [
    '<script src="assets/vega.min.js"></script>',
    '<script src="assets/vega-lite.min.js"></script>',
    '<script src="assets/vega-embed.min.js"></script>',
  ].join('\n');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>lshdp report: ${escapeHtml(res.name)}</title>
<style>${STYLE}</style>
${scripts}
</head>
<body>
<h1>lshdp report: ${escapeHtml(res.name)}</h1>
<p class="note">Locality Sensitive Hashing with Extended Differential Privacy (Fernandes, Kawamoto, Murakami, ESORICS 2021): reproduction.
Everything here is built from the files of this results folder.</p>
<h2>Run</h2>
${metadataSection(res)}
<h2>Figures</h2>
${figHtml || '<p>No figures (no utility.csv or nn_distances.csv).</p>'}
<h2>Utility loss</h2>
${utilitySection(res)}
<h2>Privacy budgets (LSHRR)</h2>
${budgetsSection(res)}
<h2>Data sets</h2>
${datasetsSection(res)}
<script id="lshdp-specs" type="application/json">${jsonForScript(specs)}</script>
<script>
(function () {
  var patchDashLegends = ${patchDashLegends.toString()};
  var specs = JSON.parse(document.getElementById('lshdp-specs').textContent);
  Object.keys(specs).forEach(function (id) {
    vegaEmbed('#' + CSS.escape(id), specs[id], { renderer: 'svg', patch: patchDashLegends, actions: { export: true, source: true, compiled: false, editor: false } })
      .catch(function (e) {
        var el = document.getElementById(id);
        el.textContent = 'figure failed to render: ' + e;
        el.className = 'err';
        console.error(e);
      });
  });
})();
</script>
</body>
</html>
`;
}
