/**
 * The offline HTML report (index.html): a contents list, run metadata, every figure, the tables
 * and the data set summaries; the page here, its sections in runSections.ts and
 * evaluationSections.ts, its tables in htmlTables.ts. By default the figures are the SVG files of
 * figures/ (the page stays small and opens from disk); a single-file page (`lshdp report
 * --single-file`) has the specs and vega/vega-lite/vega-embed inline, drawn interactively, and
 * needs no other file. Every string that comes from data or config goes through `escapeHtml`;
 * specs are embedded as JSON with `<` escaped so no data can close the script tag.
 */
import { closeSync, openSync, readFileSync, readSync, existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { writeFileAtomic } from '../util/atomic.js';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ResultsFolder } from './read.js';
import { patchDashLegends } from './specs.js';
import { decisionSectionBody } from './decisionSection.js';
import { contentsList, escapeHtml, figuresSection, jsonForScript, section, type FigureEntry, type FigureView } from './markup.js';
import { claimsSectionBody } from './claims.js';
import { isAttackFigure } from './attackFigures.js';
import { isMatchedFigure } from './matchedFigure.js';
import { interactiveTableScript } from './htmlTables.js';
import { evaluationSections, utilitySection } from './evaluationSections.js';
import { auditSections, budgetsSection, datasetsSection, metadataSection } from './runSections.js';

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

/** The paper this reproduction follows, cited at the foot of every report. */
export const PAPER_CITATION =
  'Natasha Fernandes, Yusuke Kawamoto, Takao Murakami. "Locality Sensitive Hashing with Extended Differential Privacy". ESORICS 2021 (26th European Symposium on Research in Computer Security).';

/** The vega builds' source, in load order, for a single-file page. */
function assetSources(): string[] {
  return ASSET_FILES.map((a) => readFileSync(join(dirname(fileURLToPath(import.meta.resolve(a.pkg))), a.file), 'utf8'));
}

/** A script element holding `code` (any `</script` in it cannot end the element). */
const inlineScript = (code: string) => `<script>${code.replace(/<\/(script)/gi, '<\\/$1')}</script>`;

/** The width and height an SVG of figures/ declares on its root (read from its first bytes). */
function svgSize(file: string): { width: number; height: number } | null {
  if (!existsSync(file)) return null;
  const fd = openSync(file, 'r');
  try {
    const head = Buffer.alloc(1024);
    const text = head.subarray(0, readSync(fd, head, 0, head.length, 0)).toString('utf8');
    const m = /<svg\b[^>]*?\swidth="(\d+(?:\.\d+)?)"[^>]*?\sheight="(\d+(?:\.\d+)?)"/.exec(text);
    return m ? { width: Math.round(Number(m[1])), height: Math.round(Number(m[2])) } : null;
  } finally {
    closeSync(fd);
  }
}

export interface PageOptions {
  /** everything inline (the figures' specs and the vega builds): one file that opens anywhere */
  singleFile?: boolean;
}

const STYLE = `
body { font-family: "DejaVu Sans", system-ui, sans-serif; margin: 2em auto; max-width: 1200px; padding: 0 1em; color: #222; overflow-wrap: break-word; }
h1 { font-size: 1.6em; } h2 { margin-top: 2em; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; font-size: 0.85em; margin: 0.5em 0; display: block; max-width: 100%; overflow-x: auto; }
th, td { border: 1px solid #ccc; padding: 2px 6px; } th { background: #f3f3f3; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
figure { margin: 1.5em 0; } figcaption { color: #444; font-size: 0.9em; max-width: 60em; }
.vega-figure, .vega-embed { max-width: 100%; } .vega-figure img, .vega-figure svg { max-width: 100%; height: auto; display: block; }
.figure-files { white-space: nowrap; }
#contents ol { padding-left: 1.5em; } #contents ul { margin: 0.1em 0 0.3em; padding-left: 1.2em; font-size: 0.9em; }
details.long-table > summary { cursor: pointer; color: #0550ae; margin: 0.3em 0; }
.table-summary { font-size: 0.9em; margin: 0.5em 0 0.2em; }
pre { background: #f7f7f7; padding: 0.5em; overflow-x: auto; font-size: 0.8em; }
.note { font-size: 0.85em; color: #444; } .err { color: #b00; }
.table-tools { display: flex; flex-wrap: wrap; gap: 0.4em 1em; align-items: center; font-size: 0.85em; margin: 0.5em 0; }
.table-tools .count { color: #444; }
table.interactive th button { font: inherit; font-weight: bold; background: none; border: none; padding: 0; cursor: pointer; }
table.interactive th[aria-sort=ascending] button::after { content: " ▲"; }
table.interactive th[aria-sort=descending] button::after { content: " ▼"; }
footer { margin-top: 3em; border-top: 1px solid #ccc; }
`;

export function buildHtml(res: ResultsFolder, figures: FigureEntry[], opts: PageOptions = {}): string {
  const singleFile = opts.singleFile === true;
  const view: FigureView = {
    singleFile,
    size: (f) => svgSize(join(res.dir, f.svgPath)),
    png: (f) => existsSync(join(res.dir, f.svgPath.replace(/\.svg$/, '.png'))),
  };
  // one call per section, in page order: the decision first, for a run with targets (decide:)
  const decision = decisionSectionBody(res.dir);
  // its figure (utility retained against the target) right after its sentences
  const matched = figures.filter(isMatchedFigure);
  const sections = [
    ...(decision === null ? [] : [section('decision', 'The decision: utility at matched attack success', matched.length ? `${decision}\n${figuresSection(matched, view)}` : decision)]),
    section('claims', 'Claims', claimsSectionBody(res, figures)),
    section('run', 'Run', metadataSection(res)),
    section(
      'figures',
      'Figures',
      figuresSection(
        figures.filter((f) => !isAttackFigure(f) && !isMatchedFigure(f)),
        view,
      ),
    ),
    section('utility', 'Utility loss', utilitySection(res, singleFile)),
    ...evaluationSections(res, figures, view),
    section('budgets', 'Privacy budgets (LSHRR)', budgetsSection(res)),
    section('datasets', 'Data sets', datasetsSection(res)),
    ...auditSections(res.dir),
  ];
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>lshdp report: ${escapeHtml(res.name)}</title>
<style>${STYLE}</style>
</head>
<body>
<h1>lshdp report: ${escapeHtml(res.name)}</h1>
<p class="note">A reproduction of Locality Sensitive Hashing with Extended Differential Privacy (Fernandes, Kawamoto, Murakami, ESORICS 2021).
Everything here is built from the files of this results folder (docs/OUTPUTS.md describes them).</p>
${contentsList(sections, figures)}
${sections.join('\n')}
<footer>
<p class="note">Paper: ${escapeHtml(PAPER_CITATION)}</p>
</footer>
<script>
${interactiveTableScript()}
</script>
${singleFile ? embedScripts(figures) : ''}
</body>
</html>
`;
}

/** A single-file page's figures: the vega builds and the specs inline, drawn by vega-embed. */
function embedScripts(figures: FigureEntry[]): string {
  const specs = Object.fromEntries(figures.map((f) => [f.id, f.spec]));
  return `${assetSources().map(inlineScript).join('\n')}
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
</script>`;
}
