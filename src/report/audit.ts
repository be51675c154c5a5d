/**
 * The audit's HTML: `auditSection` is a fragment (verdict summary, the verdict table, the real
 * pairs and the loss-CDF figure as inline SVG) for the run report; `auditPage` wraps it in a
 * standalone page (audit.html); `writeAuditFiles` writes the audit's files (audit.json, audit.csv,
 * the figure and the page). Every string from data or config is escaped.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { auditCsv, auditJson, stringifyAudit, type AuditJson, type AuditMeta } from '../audit/output.js';
import { VERDICTS, type AuditOutcome } from '../audit/types.js';
import { writeFileAtomicSync } from '../util/atomic.js';
import { renderSvg } from './render.js';
import { lossCdfSpec } from './privacyFigures.js';
import { escapeHtml, section } from './markup.js';
import { builtInFacts } from '../mechanisms/catalog.js';

const num = (x: number | null | undefined, digits = 4): string => (x === null || x === undefined ? 'n/a' : x === Infinity ? '∞' : Number(x.toPrecision(digits)).toString());

const ci = (c: [number, number] | null): string => (c ? `[${num(c[0], 3)}, ${num(c[1], 3)}]` : 'n/a');

/** The verdict counts, e.g. "violated 14, no-violation-found 60, not-testable 16, not-applicable 3". */
export function verdictSummary(audit: AuditJson): string {
  const counts = new Map<string, number>();
  for (const r of audit.results) counts.set(r.verdict, (counts.get(r.verdict) ?? 0) + 1);
  const known = VERDICTS.map((v) => `${v} ${counts.get(v) ?? 0}`);
  // an older audit.json's words, shown as they are rather than dropped
  const other = [...counts].filter(([v]) => !(VERDICTS as readonly string[]).includes(v)).map(([v, c]) => `${v} ${c}`);
  return [...known, ...other].join(', ');
}

/** What each verdict means (the report's legend; README, docs/PRIVACY.md and --help say the same). */
export const VERDICT_MEANINGS: Record<string, string> = {
  violated:
    "a one-sided test found more privacy loss than claimed at the row's level (α/m, Bonferroni over the m tested rows): the release's realized parameter above what the claim allows, ε_lb above the claimed ε, or LSHRR's exact tail at its declared per-bit ε above δ",
  'law-mismatch':
    'nothing shows more loss than claimed, but the release departs from the law its declared parameters give (direction: safer, riskier but within the claim, or crossing): a bug in the mechanism, not a broken claim',
  'no-violation-found': 'no test rejected; the column "detectable" is the smallest inflation of the release the row would flag with probability ≥ 0.8 — smaller faults may pass',
  'not-testable': 'no inflation up to ×100 of the release would be flagged with probability ≥ 0.8 at these samples; the row says what M would do',
  'not-applicable': 'the mechanism claims no budget (vanilla LSH)',
};

/** The verdict colours, in the section itself (audit.html and the run report both show them):
 *  red only where a test found more loss than claimed; no-violation-found is not green (it
 *  certifies nothing). */
const VERDICT_CSS = `tr.verdict-violated td:last-child { color: #b00; font-weight: bold; }
tr.verdict-law-mismatch td:last-child { color: #a0a; font-weight: bold; }
tr.verdict-no-violation-found td:last-child { color: #333; }
tr.verdict-not-testable td:last-child { color: #a60; }
tr.verdict-not-applicable td:last-child { color: #777; }`;

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

type Row = AuditJson['results'][number];

/** A row's release test: the realized parameter, its lower bound and what the claim allows. */
function release(r: Row): string {
  if (r.realized === undefined || r.realized === null) return 'n/a';
  const unit = r.parameter === 'concentration' ? ' (c)' : r.parameter === 'precision' ? ' (1/σ)' : r.parameter === 'epsilon_position' ? ' (ε′)' : '';
  return `${num(r.realized)} [${num(r.realized_lb ?? null)}] / ${num(r.allowed ?? null)}${unit}`;
}

/** A row's detectable inflation, or why there is none. */
function detectable(r: Row): string {
  if (r.detectable_inflation === undefined) return 'n/a';
  if (r.detectable_inflation === null) return r.verdict === 'not-applicable' ? '–' : 'none ≤ ×1000';
  return `×${num(r.detectable_inflation, 4)}${r.detectable_by ? ` (${r.detectable_by})` : ''}`;
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
          builtInFacts(r.base ?? '')?.usesXi === false ? '–' : String(r.xi),
          r.delta === null ? 'n/a' : String(r.delta),
          (r.tests ?? []).join(' + '),
          num(r.epsilon_bit ?? null),
          release(r),
          num(r.exact_tail ?? null),
          num(r.tail),
          num(r.epsilon_lb, 3),
          num(r.epsilon_ceiling ?? null, 3),
          detectable(r),
          r.verdict === 'law-mismatch' && r.law_direction ? `law-mismatch (${r.law_direction})` : r.verdict,
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
    .map(
      (d) =>
        `<li>${escapeHtml(d.name)}${d.synthetic ? ' (synthetic data)' : ''} (n = ${d.n}): ${d.pairs_found} distinct pair(s) within ±${d.band} of d among the first ${d.users_scanned} users${d.duplicate_pairs ? ` (${d.duplicate_pairs} more repeat a pair's vectors)` : ''}; ${d.pairs_used} used</li>`,
    )
    .join('');
  const legend = Object.entries(VERDICT_MEANINGS)
    .map(([v, m]) => `<li><i>${escapeHtml(v)}</i>: ${escapeHtml(m)}</li>`)
    .join('');
  return `<style>${VERDICT_CSS}</style>
<p>Every claim tested by experiment, ${escapeHtml(audit.samples ?? '')} estimation samples per row (fresh hash seeds and
noise per sample) on the pair a search kept (selection on separate samples). <b>${escapeHtml(verdictSummary(audit))}</b>.
Each of the ${escapeHtml(audit.rows_tested ?? 'm')} tested rows is tested at level ${escapeHtml(audit.family_alpha ?? 0.05)}/m, so a config whose
every claim holds shows a <i>violated</i> row with probability at most ${escapeHtml(audit.family_alpha ?? 0.05)} (and, for a release that is exactly
what it declares, a <i>law-mismatch</i> row with probability at most the same). <i>violated</i> is one-sided: only evidence of more
privacy loss than claimed. ε_lb is a one-sided
Clopper–Pearson lower bound at the row's confidence (all rows together: ${escapeHtml(audit.joint_confidence ?? 0.95)}); the ceiling is the
largest ε_lb these samples can show. No verdict certifies a mechanism: a fault smaller than "detectable" may pass.</p>
<ul class="audit-legend">${legend}</ul>
${datasets ? `<ul>${datasets}</ul>` : ''}
${svg ? `<figure class="audit-figure">${svg}<figcaption>Empirical CDF of LSHRR's privacy loss L against the exact distribution; the dashed rule is ξ.</figcaption></figure>` : ''}
<table class="audit">
<thead><tr><th>mechanism</th><th>accountant</th><th>κ</th><th>ξ</th><th>δ</th><th>tests</th><th>ε per bit (declared)</th><th>realized [lower bound] / allowed</th><th>exact tail</th><th>sampled tail</th><th>ε_lb</th><th>ceiling</th><th>detectable</th><th>verdict</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>
${
  real
    ? `<h3>Real pairs near d (LSHRR; informative, no verdict)</h3>
<table class="audit-real">
<thead><tr><th>mechanism</th><th>data set</th><th>κ</th><th>ξ</th><th>distinct pairs</th><th>distances</th><th>tail</th><th>95% CI</th><th>exact at own distances</th><th>samples</th></tr></thead>
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
