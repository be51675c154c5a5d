/**
 * The "Claims" section at the top of the HTML report: the scorecard of claims.json (written by
 * `lshdp claims`, `run` and `merge`), one verdict badge per claim and data set, each linking to the
 * figure the claim is about (Fig. 1 for the 1-NN shares, Fig. 2 for the utility comparisons, the
 * budget table for the accountant's worked examples; the matched claims to the decision section,
 * with a second link to their data set's figure of retained against the target). Built from the
 * file alone, like the rest.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileError } from '../util/errors.js';
import type { ClaimResult, Verdict } from '../claims/types.js';
import { INFER_CLAIM_IDS, MATCHED_CLAIM_IDS, VERDICTS } from '../claims/types.js';
import { INFER_FACTS } from '../evaluations/infer/facts.js';
import { claimShare } from '../claims/format.js';
import { escapeHtml, type FigureEntry } from './markup.js';
import type { ResultsFolder } from './read.js';
import { DECISION_SECTION_ID, hasDecisionSection } from './decisionSection.js';
import { isMatchedFigure, matchedFigureTitle } from './matchedFigure.js';

/** Badge colours (text, background): contrast ≥ 4.5:1 for the text. */
const BADGE: Record<Verdict, [string, string]> = {
  supported: ['#ffffff', '#1a7f37'],
  mixed: ['#ffffff', '#6f42c1'],
  contradicted: ['#ffffff', '#b42318'],
  inconclusive: ['#3b2300', '#f2cc60'],
  'not-tested': ['#ffffff', '#6e7781'],
};

/** claims.json of the folder, or null when there is none; one-line errors when it is malformed. */
export function readClaimsJson(dir: string): ClaimResult[] | null {
  const file = join(dir, 'claims.json');
  if (!existsSync(file)) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw fileError(file, undefined, `not valid JSON (${(e as Error).message.split('\n')[0]})`);
  }
  const claims = (parsed as { claims?: unknown } | null)?.claims;
  if (!Array.isArray(claims)) throw fileError(file, undefined, 'expected an object with a "claims" array');
  claims.forEach((c, i) => {
    const r = c as Partial<ClaimResult> | null;
    const ok =
      r !== null &&
      typeof r === 'object' &&
      typeof r.id === 'string' &&
      typeof r.dataset === 'string' &&
      VERDICTS.includes(r.verdict as Verdict) &&
      typeof r.statement === 'string' &&
      typeof r.detail === 'string' &&
      [r.cells_tested, r.cells_for, r.cells_against].every((n) => Number.isInteger(n));
    if (!ok) throw fileError(file, undefined, `claims[${i}]: expected id, dataset, verdict, statement, cells_tested, cells_for, cells_against, detail`);
  });
  return claims as ClaimResult[];
}

/** The attack's claims link to its figures (src/report/attackFigures.ts's titles). */
const ATTACK_CLAIM_FIGURES: Partial<Record<ClaimResult['id'], string>> = {
  'clean-lsh-reidentifies': 'Re-identification',
  'reid-rises-with-xi': 'Re-identification',
  'lshrr-frontier-dominates-laplsh': 'Privacy–utility frontier',
  'recommend-lshrr-frontier-dominates-laplsh': 'Privacy–utility frontier',
};

const isMatchedClaim = (r: ClaimResult): boolean => (MATCHED_CLAIM_IDS as readonly string[]).includes(r.id);

/** A matched claim's second link: its data set's figure of retained against the target (in the decision section), or null. */
function matchedFigureOf(r: ClaimResult, figures: FigureEntry[]): string | null {
  const f = figures.find((x) => isMatchedFigure(x) && x.title === matchedFigureTitle(r.dataset));
  return f ? `#${f.id}` : null;
}

/** The anchor a claim's badge links to: its data set's figure, the decision section (the matched claims), or the budgets section. */
function targetOf(r: ClaimResult, figures: FigureEntry[], decision: boolean): string | null {
  if (r.id === 'flip-probability-example' || r.id === 'ldp-equivalent') return '#budgets';
  // the matched claims: the decision's sentences, then its figure (a second link beside the share)
  if (isMatchedClaim(r)) return decision ? `#${DECISION_SECTION_ID}` : null;
  // the attribute inference's claims: its section (the evaluation's name is the section's id)
  if ((INFER_CLAIM_IDS as readonly string[]).includes(r.id)) return `#${INFER_FACTS.name}`;
  // the recommendation claims: the data set's NDCG figure ("NDCG@10: <data set>, k = 10")
  if (r.id.startsWith('recommend-') && !ATTACK_CLAIM_FIGURES[r.id]) {
    const f = figures.find((x) => /^NDCG@\d+: /.test(x.title) && x.title.replace(/^NDCG@\d+: /, '').replace(/, k = \d+$/, '') === r.dataset);
    return f ? `#${f.id}` : null;
  }
  const fig = r.id === 'nn-share' ? 'Fig. 1' : (ATTACK_CLAIM_FIGURES[r.id] ?? 'Fig. 2');
  // "Fig. 2: <data set>", possibly followed by ", k = 5": the first such figure
  const title = `${fig}: ${r.dataset}`;
  const f = figures.find((x) => x.title === title || x.title.startsWith(`${title}, `));
  return f ? `#${f.id}` : null;
}

/** The verdict's badge and, beside it, its share of cells ("supported (1 of 36 cells for, none against)") and, for a matched claim, a link to its figure. */
function badge(r: ClaimResult, href: string | null, figure: string | null): string {
  const [fg, bg] = BADGE[r.verdict];
  const style = `display:inline-block;padding:1px 7px;border-radius:3px;font-weight:bold;font-size:0.9em;white-space:nowrap;text-decoration:none;color:${fg};background:${bg}`;
  const attrs = `class="claim-badge" data-verdict="${escapeHtml(r.verdict)}" style="${style}" title="${escapeHtml(r.statement)}"`;
  const pill = href ? `<a ${attrs} href="${escapeHtml(href)}">${escapeHtml(r.verdict)}</a>` : `<span ${attrs}>${escapeHtml(r.verdict)}</span>`;
  const fig = figure ? ` <a class="claim-figure" href="${escapeHtml(figure)}">figure</a>` : '';
  return `${pill} <span class="claim-share">(${escapeHtml(claimShare(r))})</span>${fig}`;
}

/** The section's body (the report wraps it in its heading). */
export function claimsSectionBody(res: ResultsFolder, figures: FigureEntry[]): string {
  const claims = readClaimsJson(res.dir);
  if (claims === null) return '<p class="note">No claims.json in this folder (run <code>lshdp claims</code> on it, then <code>lshdp report</code>).</p>';
  if (claims.length === 0) return '<p class="note">claims.json lists no claims.</p>';
  const decision = hasDecisionSection(res.dir);
  const rows = claims.map(
    (r) => `<tr class="claim" data-claim="${escapeHtml(r.id)}">
<td>${escapeHtml(r.dataset)}</td><td><code>${escapeHtml(r.id)}</code><br><span class="note">${escapeHtml(r.statement)}</span></td>
<td>${badge(r, targetOf(r, figures, decision), isMatchedClaim(r) ? matchedFigureOf(r, figures) : null)}</td><td class="num">${r.cells_tested}</td><td class="num">${r.cells_for}</td><td class="num">${r.cells_against}</td>
<td class="note">${escapeHtml(r.detail)}</td></tr>`,
  );
  const counts = VERDICTS.map((v) => [v, claims.filter((r) => r.verdict === v).length] as const).filter(([, n]) => n > 0);
  const summary = counts.map(([v, n]) => `${n} ${escapeHtml(v)}`).join(', ');
  return `<p class="note">Does the paper hold on this run? ${summary}. Each comparative claim is a family of one-sided t-tests over trials (one per grid cell), Holm-corrected; a badge links to the figure the claim is about. Details: tables/claims.md and claims.json.</p>
<table class="claims"><thead><tr><th>data set</th><th>claim</th><th>verdict</th><th>cells tested</th><th>for</th><th>against</th><th>detail</th></tr></thead><tbody>
${rows.join('\n')}
</tbody></table>`;
}
