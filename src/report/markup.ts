/**
 * The HTML building blocks every report page shares: escaping, JSON inside a script tag, a section
 * with its anchor, what a figure of the report is and how a section lists its figures. A leaf
 * module, so the sections (claims, audit, runSections.ts, evaluationSections.ts) and the page
 * (html.ts) can all use it without importing each other.
 */
import type { VlSpec } from './specs.js';

export function escapeHtml(s: unknown): string {
  return String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
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

export interface FigureEntry {
  id: string;
  title: string;
  caption: string;
  spec: VlSpec;
  /** path relative to the results folder, shown when scripts are off */
  svgPath: string;
}

/** How the page shows its figures: the folder's SVG files, or (single file) the specs inline, drawn by vega-embed. */
export interface FigureView {
  singleFile: boolean;
  /** a figure's SVG size in px, when its file is there (the page reserves the space before it loads) */
  size?: (f: FigureEntry) => { width: number; height: number } | null;
  /** the figure also has a PNG beside its SVG */
  png?: (f: FigureEntry) => boolean;
}

/** A report section: a heading with an anchor, then its body. */
export function section(id: string, title: string, body: string): string {
  return `<section id="${escapeHtml(id)}">\n<h2>${escapeHtml(title)}</h2>\n${body}\n</section>`;
}

/**
 * One figure: by default the SVG the report wrote to figures/ (scaled to the page's width), with
 * links to its files; in a single-file page an empty box vega-embed draws the inline spec into.
 */
function figureHtml(f: FigureEntry, view: FigureView): string {
  const id = escapeHtml(f.id);
  if (view.singleFile) return `<figure>\n<div id="${id}" class="vega-figure"></div>\n<figcaption>${escapeHtml(f.caption)}</figcaption>\n</figure>`;
  const size = view.size?.(f);
  const stem = f.svgPath.replace(/\.svg$/, '');
  const links = [`<a href="${escapeHtml(f.svgPath)}">SVG</a>`, ...(view.png?.(f) ? [`<a href="${escapeHtml(stem)}.png">PNG</a>`] : []), `<a href="${escapeHtml(stem)}.vl.json">Vega-Lite spec</a>`];
  const dims = size ? ` width="${size.width}" height="${size.height}"` : '';
  return `<figure>
<div id="${id}" class="vega-figure"><img src="${escapeHtml(f.svgPath)}" alt="${escapeHtml(f.title)}"${dims}></div>
<figcaption>${escapeHtml(f.caption)} <span class="figure-files">${links.join(' · ')}</span></figcaption>
</figure>`;
}

/** The figures of a section, each with its caption (and, from figures/, links to its files). */
export function figuresSection(figures: FigureEntry[], view: FigureView): string {
  return figures.map((f) => figureHtml(f, view)).join('\n') || '<p>No figures (no utility.csv or nn_distances.csv).</p>';
}

/**
 * The contents list at the top of the page: every section (from its `section()` markup) and,
 * under it, every figure it shows, by title.
 */
export function contentsList(sections: readonly string[], figures: readonly FigureEntry[]): string {
  const titles = new Map(figures.map((f) => [escapeHtml(f.id), escapeHtml(f.title)]));
  const items = sections.map((html) => {
    const head = /^<section id="([^"]*)">\n<h2>([^<]*)<\/h2>/.exec(html);
    if (!head) return '';
    const figs = [...html.matchAll(/<div id="([^"]*)" class="vega-figure"/g)].map((m) => `<li><a href="#${m[1]}">${titles.get(m[1]) ?? m[1]}</a></li>`);
    return `<li><a href="#${head[1]}">${head[2]}</a>${figs.length ? `\n<ul>${figs.join('')}</ul>` : ''}</li>`;
  });
  return `<nav id="contents" aria-label="contents">\n<h2>Contents</h2>\n<ol>\n${items.filter((i) => i !== '').join('\n')}\n</ol>\n</nav>`;
}
