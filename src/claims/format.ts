/**
 * The claims as text: the JSON of `lshdp claims --json` / claims.json, and the markdown scorecard of
 * tables/claims.md (one row per claim and data set, every verdict with its counts).
 */
import { claimDefinitions } from './all.js';
import { VERDICTS, type ClaimResult, type Verdict } from './types.js';

/** `{"claims": [...]}`, fields in the documented order, pretty-printed, newline-terminated. */
export function claimsJson(results: readonly ClaimResult[]): string {
  const claims = results.map((r) => ({
    id: r.id,
    dataset: r.dataset,
    verdict: r.verdict,
    statement: r.statement,
    cells_tested: r.cells_tested,
    cells_for: r.cells_for,
    cells_against: r.cells_against,
    detail: r.detail,
  }));
  return JSON.stringify({ claims }, null, 2) + '\n';
}

function escapeMd(s: string): string {
  return s.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

/**
 * The evidence behind a claim's verdict, e.g. "1 of 36 cells for, none against": "supported"
 * needs only one significant cell and none against, so no view prints the word without it.
 * Every view (terminal, tables/claims.md, the report's badge) takes it from here.
 */
export function claimShare(r: Pick<ClaimResult, 'cells_tested' | 'cells_for' | 'cells_against'>): string {
  if (r.cells_tested === 0) return 'no cell tested';
  const against = r.cells_against === 0 ? 'none' : String(r.cells_against);
  return `${r.cells_for} of ${r.cells_tested} ${r.cells_tested === 1 ? 'cell' : 'cells'} for, ${against} against`;
}

/** The verdict with its share, e.g. "supported (1 of 36 cells for, none against)". */
export function verdictWithShare(r: Pick<ClaimResult, 'verdict' | 'cells_tested' | 'cells_for' | 'cells_against'>): string {
  return `${r.verdict} (${claimShare(r)})`;
}

/** "3 supported, 1 contradicted, …" over the verdicts present. */
export function verdictCounts(results: readonly ClaimResult[]): string {
  const count = (v: Verdict) => results.filter((r) => r.verdict === v).length;
  return (
    VERDICTS.filter((v) => count(v) > 0)
      .map((v) => `${count(v)} ${v}`)
      .join(', ') || 'no claims'
  );
}

/** The scorecard: a table per data set in the results' order, then the statements of the claims. */
export function claimsMarkdown(results: readonly ClaimResult[], alpha: number): string {
  const lines = [
    '# Claims of the paper on this run',
    '',
    `Each comparative claim is a family of one-sided t-tests over trials, one per grid cell (paired when both sides share the trial's hyperplanes, Welch otherwise), Holm-corrected at family-wise α = ${alpha} in each direction: **mixed** when some cell is significant for the claim and some against it (the detail names the groups each way), **contradicted** when some cell is significant against the claim and none for it, **supported** when none is against and at least one is for (equivalence: every cell shown equivalent by its own TOST at α, an intersection–union test, which needs no correction; its side against keeps Holm) and at least half the cells have power (the smallest p-value their test can attain reaches their Holm threshold; the detail says what the verdict rests on), **inconclusive** otherwise, **not-tested** when the grid cannot test it. A cell without variance takes the t test's limit: p = 0 where every trial is beyond the compared value, else 1. Each verdict is printed with its share of the cells (for, against, of those tested).`,
    '',
  ];
  const datasets = [...new Set(results.map((r) => r.dataset))];
  for (const ds of datasets) {
    const rows = results.filter((r) => r.dataset === ds);
    lines.push(`## ${escapeMd(ds)} (${verdictCounts(rows)})`, '');
    lines.push('| claim | verdict | cells tested | for | against | detail |', '| --- | --- | ---: | ---: | ---: | --- |');
    for (const r of rows) {
      lines.push(`| ${r.id} | ${verdictWithShare(r)} | ${r.cells_tested} | ${r.cells_for} | ${r.cells_against} | ${escapeMd(r.detail)} |`);
    }
    lines.push('');
  }
  lines.push('## The claims', '');
  const ids = new Set(results.map((r) => r.id));
  for (const c of claimDefinitions()) if (ids.has(c.id)) lines.push(`- **${c.id}**: ${escapeMd(c.statement)}`);
  return lines.join('\n') + '\n';
}
