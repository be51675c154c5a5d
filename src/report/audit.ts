/**
 * The audit's HTML: `auditSection` is a fragment (verdict summary, the verdict table, the real
 * pairs and the loss-CDF figure as inline SVG) for the run report; `auditPage` wraps it in a
 * standalone page (audit.html); `writeAuditFiles` writes the audit's files (audit.json, audit.csv,
 * the figure and the page). Every string from data or config is escaped.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { auditCsv, auditJson, stringifyAudit, type AuditJson, type AuditMeta } from '../audit/output.js';
import type { AuditOutcome } from '../audit/run.js';
import { writeFileAtomicSync } from '../util/atomic.js';
import { renderSvg } from './render.js';
import { lossCdfSpec } from './privacyFigures.js';
import { escapeHtml, section } from './markup.js';

const num = (x: number | null | undefined, digits = 4): string => (x === null || x === undefined ? 'n/a' : x === Infinity ? '∞' : Number(x.toPrecision(digits)).toString());

const ci = (c: [number, number] | null): string => (c ? `[${num(c[0], 3)}, ${num(c[1], 3)}]` : 'n/a');

/** The verdict counts, e.g. "sound 60, violated 18, inconclusive 0, n/a 3". */
export function verdictSummary(audit: AuditJson): string {
  const counts = new Map<string, number>();
  for (const r of audit.results) counts.set(r.verdict, (counts.get(r.verdict) ?? 0) + 1);
  return ['sound', 'violated', 'inconclusive', 'n/a'].map((v) => `${v} ${counts.get(v) ?? 0}`).join(', ');
}

/** The audit section (an HTML fragment); `svg` is the loss-CDF figure or null. */
export function auditSection(audit: AuditJson, svg: string | null): string {
  return section('audit', 'Privacy audit', auditBody(audit, svg));
}

/**
 * The audit of a results folder for its report: `DIR/audit/audit.json` (and audit-cdf.svg) when
 * `lshdp audit CONFIG --out DIR/audit` was run there; null otherwise (no section).
 */
export function auditBodyOf(resultsDir: string): string | null {
  const file = join(resultsDir, 'audit', 'audit.json');
  if (!existsSync(file)) return null;
  let audit: AuditJson;
  try {
    audit = JSON.parse(readFileSync(file, 'utf8')) as AuditJson;
  } catch {
    return `<p class="err">${escapeHtml(file)}: not valid JSON</p>`;
  }
  if (!Array.isArray(audit?.results)) return `<p class="err">${escapeHtml(file)}: no results</p>`;
  const svgFile = join(resultsDir, 'audit', 'audit-cdf.svg');
  return auditBody(audit, existsSync(svgFile) ? readFileSync(svgFile, 'utf8') : null);
}

/** The body of the audit section (no heading). */
export function auditBody(audit: AuditJson, svg: string | null): string {
  const rows = audit.results
    .map(
      (r) =>
        `<tr class="verdict-${escapeHtml(r.verdict.replace('/', ''))}">` +
        [
          r.mechanism,
          r.accountant ?? '',
          String(r.kappa),
          r.base === 'lsh' ? '–' : String(r.xi),
          r.delta === null ? 'n/a' : String(r.delta),
          num(r.epsilon_bit ?? null),
          num(r.tail),
          ci(r.tail_ci),
          num(r.exact_tail ?? null),
          num(r.epsilon_lb, 3),
          r.verdict,
        ]
          .map((c) => `<td>${escapeHtml(c)}</td>`)
          .join('') +
        '</tr>',
    )
    .join('\n');
  const real = (audit.real_pairs ?? [])
    .map(
      (r) =>
        '<tr>' +
        [r.mechanism, r.source, String(r.kappa), String(r.xi), String(r.pairs), `${num(r.distance_min, 4)}–${num(r.distance_max, 4)}`, num(r.tail), ci(r.tail_ci), num(r.exact_tail), String(r.samples)]
          .map((c) => `<td>${escapeHtml(c)}</td>`)
          .join('') +
        '</tr>',
    )
    .join('\n');
  const datasets = (audit.datasets ?? [])
    .map((d) => `<li>${escapeHtml(d.name)} (n = ${d.n}): ${d.pairs_found} pair(s) within ±${d.band} of d among the first ${d.users_scanned} users; ${d.pairs_used} used</li>`)
    .join('');
  return `<p>Every claim checked by experiment on a synthetic pair at exactly d, ${escapeHtml(audit.samples ?? '')} samples per row
(fresh hash seeds and noise per sample). <b>${escapeHtml(verdictSummary(audit))}</b>.
Verdicts control the family-wise error at ${escapeHtml(audit.family_alpha ?? 0.05)} (Holm): <i>violated</i> means the
empirical tail Pr[L &gt; ξ] exceeds δ, or the black-box lower bound ε_lb exceeds ξ; <i>sound</i> means no violation and
the tail is shown below ${escapeHtml(audit.sound_factor ?? 2)}δ (for LapLSH and RAPPOR, whose loss is not computable: no
violation found by the black-box test); <i>n/a</i>: vanilla LSH claims no ξ. The 95% intervals are per row; with many rows
one may miss δ by chance without a violation at the family level.</p>
${datasets ? `<ul>${datasets}</ul>` : ''}
${svg ? `<figure class="audit-figure">${svg}<figcaption>Empirical CDF of the privacy loss L against the exact distribution; the dashed rule is ξ.</figcaption></figure>` : ''}
<table class="audit">
<thead><tr><th>mechanism</th><th>accountant</th><th>κ</th><th>ξ</th><th>δ</th><th>ε per bit</th><th>tail Pr[L&gt;ξ]</th><th>95% CI</th><th>exact tail</th><th>ε_lb</th><th>verdict</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>
${
  real
    ? `<h3>Real pairs near d (LSHRR; informative, no verdict)</h3>
<table class="audit-real">
<thead><tr><th>mechanism</th><th>data set</th><th>κ</th><th>ξ</th><th>pairs</th><th>distances</th><th>tail</th><th>95% CI</th><th>exact at own distances</th><th>samples</th></tr></thead>
<tbody>
${real}
</tbody>
</table>`
    : ''
}`;
}

/** A standalone audit page (audit.html). */
export function auditPage(audit: AuditJson, svg: string | null): string {
  const title = `lshdp audit${audit.config?.name ? `: ${audit.config.name}` : ''}`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>
body { font-family: 'DejaVu Sans', sans-serif; margin: 2em; max-width: 1200px; }
table { border-collapse: collapse; font-size: 13px; }
td, th { border: 1px solid #ccc; padding: 2px 6px; text-align: right; }
td:first-child, th:first-child { text-align: left; }
tr.verdict-violated td:last-child { color: #b00; font-weight: bold; }
tr.verdict-sound td:last-child { color: #060; }
tr.verdict-inconclusive td:last-child { color: #a60; }
figure svg { max-width: 100%; height: auto; }
</style></head><body>
<h1>${escapeHtml(title)}</h1>
${auditSection(audit, svg)}
</body></html>
`;
}

/** Writes audit.json, audit.csv, audit-cdf.svg (when there is a CDF) and audit.html into `dir`. */
export async function writeAuditFiles(dir: string, outcome: AuditOutcome, meta: AuditMeta): Promise<string[]> {
  const json = auditJson(outcome, meta);
  const written: string[] = [];
  const put = (name: string, data: string) => {
    writeFileAtomicSync(join(dir, name), data);
    written.push(name);
  };
  put('audit.json', stringifyAudit(json));
  put('audit.csv', auditCsv(outcome.results));
  let svg: string | null = null;
  if (outcome.cdf.length) {
    svg = await renderSvg(lossCdfSpec(outcome.cdf, outcome.cdfXi));
    put('audit-cdf.svg', svg);
  }
  put('audit.html', auditPage(json, svg));
  return written;
}
