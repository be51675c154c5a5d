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
import type { DirectionalBudgetRecord, RecommendRow, ResultsFolder } from './read.js';
import { patchDashLegends } from './specs.js';
import { escapeHtml, jsonForScript, section, type FigureEntry } from './markup.js';
import { budgetCells, budgetCellsHeader, formatMeanSe, formatNumber } from './tables.js';
import { uniqueInOrder } from './read.js';
import { claimsSectionBody } from './claims.js';
import { auditBodyOf } from './audit.js';
import { isAttackFigure } from './attackFigures.js';

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

function table(header: string[], rows: string[][], numericFrom = 1): string {
  const th = header.map((h) => `<th>${escapeHtml(h)}</th>`).join('');
  const body = rows.map((r) => `<tr>${r.map((c, i) => `<td${i >= numericFrom ? ' class="num"' : ''}>${escapeHtml(c)}</td>`).join('')}</tr>`).join('\n');
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
  const details = nested.map(([k, v]) => `<details><summary>${escapeHtml(k)}</summary><pre>${escapeHtml(JSON.stringify(shown(v), null, 2))}</pre></details>`).join('\n');
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

/** A column of an interactive table: `num` columns sort by the number in each cell's data-v. */
interface Column {
  title: string;
  type: 'num' | 'text';
  /** offer a drop-down of its distinct values above the table */
  choice?: boolean;
}

/** One cell: what it shows, and the value it sorts and filters by (defaults to the text). */
interface Cell {
  text: string;
  v?: string | number | null;
}

/**
 * A table the reader can filter (a drop-down per `choice` column and a text search) and sort
 * (click a header; again to reverse), by the inline script of the page: no library, no network.
 */
function interactiveTable(id: string, columns: Column[], rows: Cell[][]): string {
  const choices = columns
    .map((c, i) => {
      if (!c.choice) return '';
      const values = uniqueInOrder(rows.map((r) => String(r[i].v ?? r[i].text)));
      if (c.type === 'num') values.sort((a, b) => (Number(a) || 0) - (Number(b) || 0));
      const opts = values.map((v) => `<option value="${escapeHtml(v)}">${escapeHtml(v === '' ? '–' : v)}</option>`).join('');
      return `<label>${escapeHtml(c.title)} <select data-col="${i}"><option value="">all</option>${opts}</select></label>`;
    })
    .join('\n');
  const tools = `<div class="table-tools" id="${escapeHtml(id)}-tools">
${choices}
<label>search <input type="search" placeholder="any text in a row"></label>
<span class="count" aria-live="polite">${rows.length} of ${rows.length} rows</span>
</div>`;
  const th = columns.map((c) => `<th data-type="${c.type}" aria-sort="none"><button type="button" title="sort by ${escapeHtml(c.title)}">${escapeHtml(c.title)}</button></th>`).join('');
  const body = rows
    .map((r) => `<tr>${r.map((c, i) => `<td${columns[i].type === 'num' ? ' class="num"' : ''} data-v="${escapeHtml(c.v ?? c.text)}">${escapeHtml(c.text)}</td>`).join('')}</tr>`)
    .join('\n');
  return `${tools}\n<table id="${escapeHtml(id)}" class="interactive"><thead><tr>${th}</tr></thead><tbody>\n${body}\n</tbody></table>`;
}

/**
 * The filtering and sorting of every `table.interactive`, inlined in the page (plain ES5, so
 * any browser runs it from disk). Filters combine; sorting is stable and puts empty cells last.
 */
function interactiveTableScript(): string {
  return `(function () {
  Array.prototype.forEach.call(document.querySelectorAll('table.interactive'), function (table) {
    var tools = document.getElementById(table.id + '-tools');
    var tbody = table.tBodies[0];
    var rows = Array.prototype.slice.call(tbody.rows);
    rows.forEach(function (tr, i) { tr.setAttribute('data-index', String(i)); });
    var selects = Array.prototype.slice.call(tools.querySelectorAll('select[data-col]'));
    var search = tools.querySelector('input[type=search]');
    var count = tools.querySelector('.count');
    function apply() {
      var q = search.value.trim().toLowerCase();
      var shown = 0;
      rows.forEach(function (tr) {
        var ok = selects.every(function (s) { return s.value === '' || tr.cells[Number(s.getAttribute('data-col'))].getAttribute('data-v') === s.value; });
        if (ok && q !== '' && tr.textContent.toLowerCase().indexOf(q) < 0) ok = false;
        tr.hidden = !ok;
        if (ok) shown++;
      });
      count.textContent = shown + ' of ' + rows.length + ' rows';
    }
    selects.forEach(function (s) { s.addEventListener('change', apply); });
    search.addEventListener('input', apply);
    var ths = Array.prototype.slice.call(table.tHead.rows[0].cells);
    ths.forEach(function (th, col) {
      th.querySelector('button').addEventListener('click', function () {
        var dir = th.getAttribute('aria-sort') === 'ascending' ? -1 : 1;
        ths.forEach(function (h) { h.setAttribute('aria-sort', 'none'); });
        th.setAttribute('aria-sort', dir === 1 ? 'ascending' : 'descending');
        var num = th.getAttribute('data-type') === 'num';
        function key(tr) {
          var v = tr.cells[col].getAttribute('data-v');
          return num ? (v === '' ? NaN : Number(v)) : v;
        }
        rows.sort(function (a, b) {
          var x = key(a), y = key(b), c;
          if (num) {
            if (isNaN(x) || isNaN(y)) c = isNaN(x) === isNaN(y) ? 0 : (isNaN(x) ? 1 : -1) * dir;
            else c = x - y;
          } else c = x < y ? -1 : x > y ? 1 : 0;
          return dir * c || Number(a.getAttribute('data-index')) - Number(b.getAttribute('data-index'));
        });
        rows.forEach(function (tr) { tbody.appendChild(tr); });
      });
    });
  });
})();`;
}

const numCell = (x: number | null, text = x === null ? '–' : formatNumber(x)): Cell => ({ text, v: x === null ? '' : x });

function utilitySection(res: ResultsFolder): string {
  if (!res.utility) return '<p>No utility.csv in this folder.</p>';
  const columns: Column[] = [
    { title: 'data set', type: 'text', choice: true },
    { title: 'n', type: 'num', choice: true },
    { title: 'κ', type: 'num', choice: true },
    { title: 'k', type: 'num', choice: true },
    { title: 'mechanism', type: 'text', choice: true },
    { title: 'accountant', type: 'text' },
    { title: 'ξ', type: 'num', choice: true },
    { title: 'ε_LDP', type: 'num' },
    { title: 'ε_bit (LSHRR)', type: 'num' },
    { title: 'ε_Lap (LapLSH)', type: 'num' },
    { title: 'trials', type: 'num' },
    { title: 'utility loss (mean ± se)', type: 'num' },
    { title: 'recall (mean ± se)', type: 'num' },
  ];
  const rows = res.utility.map((r): Cell[] => [
    { text: r.dataset },
    numCell(r.n, String(r.n)),
    numCell(r.kappa, r.kappa === null ? '–' : String(r.kappa)),
    numCell(r.k, String(r.k)),
    { text: r.mechanism + (r.fallback ? ' *' : ''), v: r.mechanism },
    { text: r.accountant ?? '–', v: r.accountant ?? '' },
    numCell(r.xi, r.xi === null ? '–' : String(r.xi)),
    numCell(r.epsilon_ldp),
    numCell(r.epsilon_bit),
    numCell(r.epsilon_lap),
    numCell(r.trials, String(r.trials)),
    { text: formatMeanSe(r.utility_loss_mean, r.utility_loss_se), v: r.utility_loss_mean },
    { text: r.recall_mean === null ? '–' : formatMeanSe(r.recall_mean, r.recall_se), v: r.recall_mean ?? '' },
  ]);
  const notes = [
    'Choose rows with the drop-downs or the search box; click a column title to sort (again to reverse).',
    'ε_LDP: the LDP-equivalent budget, comparable across mechanisms (κ·ε_bit for LSHRR, 2·ε_Lap for LapLSH, ε for RAPPOR); ε_bit: the per-bit randomized-response ε; ε_Lap: the Laplace ε.',
    ...(res.utility.some((r) => r.utility_loss_se === null) ? ['n/a: standard error unknown (one trial).'] : []),
    ...(res.utility.some((r) => r.fallback) ? ['* fallback: no α exists (d<sup>κ</sup> ≥ δ), ξ = κε.'] : []),
  ];
  return interactiveTable('utility-table', columns, rows) + notes.map((n) => `<p class="note">${n}</p>`).join('\n');
}

/**
 * The recommendations (recommend.csv): every row in an interactive table, with links to the NDCG
 * figures (in the Figures section) and what the measures and baselines are. Shown only for a
 * folder that has recommend.csv.
 */
function recommendSection(rows: readonly RecommendRow[], figures: FigureEntry[]): string {
  const columns: Column[] = [
    { title: 'data set', type: 'text', choice: true },
    { title: 'n', type: 'num', choice: true },
    { title: 'κ', type: 'num', choice: true },
    { title: 'k', type: 'num', choice: true },
    { title: 'mechanism', type: 'text', choice: true },
    { title: 'accountant', type: 'text' },
    { title: 'ξ', type: 'num', choice: true },
    { title: 'N', type: 'num', choice: true },
    { title: 'trials', type: 'num' },
    { title: 'queries', type: 'num' },
    { title: 'HR@N (mean ± se)', type: 'num' },
    { title: 'NDCG@N (mean ± se)', type: 'num' },
    { title: 'item recall@N (mean ± se)', type: 'num' },
  ];
  const optional = (x: number | null) => numCell(x, x === null ? '–' : String(x));
  const cells = rows.map((r): Cell[] => [
    { text: r.dataset },
    numCell(r.n, String(r.n)),
    optional(r.kappa),
    optional(r.k),
    { text: r.mechanism },
    { text: r.accountant ?? '–', v: r.accountant ?? '' },
    optional(r.xi),
    numCell(r.top, String(r.top)),
    numCell(r.trials, String(r.trials)),
    numCell(r.queries, String(r.queries)),
    { text: formatMeanSe(r.hr_mean, r.hr_se), v: r.hr_mean },
    { text: formatMeanSe(r.ndcg_mean, r.ndcg_se), v: r.ndcg_mean },
    { text: formatMeanSe(r.item_recall_mean, r.item_recall_se), v: r.item_recall_mean },
  ]);
  const links = figures.filter((f) => f.id.startsWith('ndcg-')).map((f) => `<a href="#${escapeHtml(f.id)}">${escapeHtml(f.title)}</a>`);
  const notes = [
    "Top-N lists made from each mechanism's k neighbours (the sum of their training vectors), scored on each query user's held-out items (docs/RECOMMEND.md): HR@N, the share of queries with a held-out item in the top N; NDCG@N, the discounted gain of the hits over its ideal; item recall@N, the share of a query's held-out items in the top N. Each is averaged over the queries of a trial, then mean ± standard error over trials.",
    'Rows without ξ: no privacy (vanilla LSH; exact, the exact k nearest neighbours, no κ) and pop, the N items most users had in training (no neighbours, no k). ξ = 0: uniformly random bits, the random level.',
    ...(rows.some((r) => r.ndcg_se === null) ? ['n/a: standard error unknown (one trial: the baselines, which draw nothing at random).'] : []),
  ];
  return (links.length ? `<p>Figures: ${links.join(', ')}.</p>\n` : '') + interactiveTable('recommend-table', columns, cells) + notes.map((n) => `<p class="note">${escapeHtml(n)}</p>`).join('\n');
}

/** The Recommendations section when the folder has recommend.csv, else nothing. */
function recommendSections(res: ResultsFolder, figures: FigureEntry[]): string[] {
  return res.recommend ? [section('recommend', 'Recommendations', recommendSection(res.recommend, figures))] : [];
}

/** What the attack.csv rows measure, above the table (docs/ATTACKS.md has the whole threat model). */
const ATTACK_NOTE =
  "The linkage attack (docs/ATTACKS.md): the adversary knows the trial's public hash functions, every user's released code and, for each target, a share <i>known</i> of the target's non-zero entries with their values; it hashes that partial profile without noise and ranks the N released codes by Hamming distance. reid@1 and reid@10 are the chances that the target comes first and within the first 10 (ties broken uniformly at random), averaged over the targets, then mean ± se over trials; chance is 1/N and 10/N. A mechanism without ξ (vanilla LSH) is the no-noise ceiling. The attack's success is a lower bound on what an adversary can do, not an upper bound.";

/** The linkage attack's section, when the folder has attack.csv: what it measures, its figures and its table. */
function attackSections(res: ResultsFolder, figures: FigureEntry[]): string[] {
  if (!res.attack) return [];
  const columns: Column[] = [
    { title: 'data set', type: 'text', choice: true },
    { title: 'n', type: 'num', choice: true },
    { title: 'κ', type: 'num', choice: true },
    { title: 'mechanism', type: 'text', choice: true },
    { title: 'accountant', type: 'text' },
    { title: 'ξ', type: 'num', choice: true },
    { title: 'known', type: 'num', choice: true },
    { title: 'reid@1 (mean ± se)', type: 'num' },
    { title: 'reid@10 (mean ± se)', type: 'num' },
    { title: 'chance 1/N', type: 'num' },
    { title: 'trials', type: 'num' },
    { title: 'targets of N', type: 'num' },
  ];
  const rows = res.attack.map((r): Cell[] => [
    { text: r.dataset },
    numCell(r.n, String(r.n)),
    numCell(r.kappa, String(r.kappa)),
    { text: r.mechanism },
    { text: r.accountant ?? '–', v: r.accountant ?? '' },
    numCell(r.xi, r.xi === null ? '–' : String(r.xi)),
    numCell(r.known, String(r.known)),
    { text: formatMeanSe(r.reid1_mean, r.reid1_se), v: r.reid1_mean },
    { text: formatMeanSe(r.reid10_mean, r.reid10_se), v: r.reid10_mean },
    numCell(1 / r.users),
    numCell(r.trials, String(r.trials)),
    { text: `${r.targets} of ${r.users}`, v: r.targets },
  ]);
  const figs = figures.length ? figuresSection(figures) : '<p class="note">No attack figures (built with the whole folder by lshdp report).</p>';
  return [section('attack', 'Linkage attack', `<p class="note">${ATTACK_NOTE}</p>\n${figs}\n${interactiveTable('attack-table', columns, rows)}`)];
}

function budgetsSection(res: ResultsFolder): string {
  if (!res.budgets) return '<p>No budgets.csv in this folder.</p>';
  const hasHockey = res.budgets.some((r) => r.delta_hockey !== null);
  const rows = res.budgets.map((r) => budgetCells(r, hasHockey, 4));
  const header = budgetCellsHeader(hasHockey).map((h) => (h === 'ε_LDP' ? 'ε_LDP = κε' : h));
  return table(header, rows, 1) + directionalBudgetsHtml(res.directionalBudgets ?? []);
}

/** What "equal ξ" means when the directional mechanisms stand beside LSHRR (docs/PRIVACY.md). */
const DIRECTIONAL_EQUAL_XI =
  "Equal ξ is the paper's LapLSH sense: the privacy loss between two inputs at distance d_θ is at most ξ. VMF (c·d₂-private) and Purkayastha (c·θ-private) give it with δ = 0, for every pair and every hash function, whatever κ; LSHRR's guarantee holds with probability 1 − δ over the hash seeds. Beyond d_θ the guarantees grow differently: up to the LDP equivalents 2c (VMF), πc (Purkayastha) and κε (LSHRR).";

/**
 * The directional mechanisms' budgets (one row per mechanism, d and ξ: the same for every κ), and
 * what "equal ξ" means beside LSHRR.
 */
function directionalBudgetsHtml(rows: readonly DirectionalBudgetRecord[]): string {
  if (rows.length === 0) return '';
  const seen = new Set<string>();
  const cells: string[][] = [];
  for (const r of rows) {
    const key = `${r.mechanism}\u0000${r.d}\u0000${r.xi}`;
    if (seen.has(key)) continue;
    seen.add(key);
    cells.push([r.mechanism, String(r.d), String(r.xi), r.concentration_metric === 'euclidean' ? 'c·d₂' : 'c·θ', formatNumber(r.concentration, 6), formatNumber(r.epsilon_ldp, 6)]);
  }
  return `<h3>Directional mechanisms</h3>\n` + table(['mechanism', 'd_θ', 'ξ', 'private for', 'c', 'ε_LDP'], cells, 1) + `<p class="note">${escapeHtml(DIRECTIONAL_EQUAL_XI)}</p>`;
}

/** The paper this reproduction follows, cited at the foot of every report. */
export const PAPER_CITATION =
  'Natasha Fernandes, Yusuke Kawamoto, Takao Murakami. "Locality Sensitive Hashing with Extended Differential Privacy". ESORICS 2021 (26th European Symposium on Research in Computer Security).';

function figuresSection(figures: FigureEntry[]): string {
  const figHtml = figures
    .map(
      (f) => `<figure>
<div id="${escapeHtml(f.id)}" class="vega-figure"><noscript><img src="${escapeHtml(f.svgPath)}" alt="${escapeHtml(f.title)}"></noscript></div>
<figcaption>${escapeHtml(f.caption)} (<a href="${escapeHtml(f.svgPath)}">SVG</a>)</figcaption>
</figure>`,
    )
    .join('\n');
  return figHtml || '<p>No figures (no utility.csv or nn_distances.csv).</p>';
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
.table-tools { display: flex; flex-wrap: wrap; gap: 0.4em 1em; align-items: center; font-size: 0.85em; margin: 0.5em 0; }
.table-tools .count { color: #444; }
table.interactive th button { font: inherit; font-weight: bold; background: none; border: none; padding: 0; cursor: pointer; }
table.interactive th[aria-sort=ascending] button::after { content: " ▲"; }
table.interactive th[aria-sort=descending] button::after { content: " ▼"; }
footer { margin-top: 3em; border-top: 1px solid #ccc; }
`;

/** The privacy-audit section when the folder holds audit/audit.json (src/report/audit.ts). */
function auditSections(dir: string): string[] {
  const body = auditBodyOf(dir);
  return body === null ? [] : [section('audit', 'Privacy audit', body)];
}

export function buildHtml(res: ResultsFolder, figures: FigureEntry[]): string {
  const specs = Object.fromEntries(figures.map((f) => [f.id, f.spec]));
  const scripts = ['<script src="assets/vega.min.js"></script>', '<script src="assets/vega-lite.min.js"></script>', '<script src="assets/vega-embed.min.js"></script>'].join('\n');
  // one call per section, in page order
  const sections = [
    section('claims', 'Claims', claimsSectionBody(res, figures)),
    section('run', 'Run', metadataSection(res)),
    section('figures', 'Figures', figuresSection(figures.filter((f) => !isAttackFigure(f)))),
    section('utility', 'Utility loss', utilitySection(res)),
    ...recommendSections(res, figures),
    ...attackSections(res, figures.filter(isAttackFigure)),
    section('budgets', 'Privacy budgets (LSHRR)', budgetsSection(res)),
    section('datasets', 'Data sets', datasetsSection(res)),
    ...auditSections(res.dir),
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
<p class="note">A reproduction of Locality Sensitive Hashing with Extended Differential Privacy (Fernandes, Kawamoto, Murakami, ESORICS 2021).
Everything here is built from the files of this results folder (docs/OUTPUTS.md describes them).</p>
${sections}
<footer>
<p class="note">Paper: ${escapeHtml(PAPER_CITATION)}</p>
</footer>
<script id="lshdp-specs" type="application/json">${jsonForScript(specs)}</script>
<script>
${interactiveTableScript()}
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
