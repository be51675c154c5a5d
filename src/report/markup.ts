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

/** A report section: a heading with an anchor, then its body. */
export function section(id: string, title: string, body: string): string {
  return `<section id="${escapeHtml(id)}">\n<h2>${escapeHtml(title)}</h2>\n${body}\n</section>`;
}

/** The figures of a section, each with its caption and a link to its SVG. */
export function figuresSection(figures: FigureEntry[]): string {
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
