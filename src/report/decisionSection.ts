/**
 * The report's first section for a run with targets (config `decide`, matched.csv): per data set
 * and target one sentence a reader can quote, at the headline cell (n nearest 100, κ nearest 20),
 * the other cells' sentences folded under it, and the caveat line. Read from matched.csv, the file
 * `lshdp choose` and tables/matched.md agree with.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Papa from 'papaparse';
import { MATCHED_CAVEAT, type MatchedRow } from '../decide/choose.js';
import { nearest } from '../util/nearest.js';
import { escapeHtml } from './markup.js';
import { formatNumber } from './tables.js';

/** The section's anchor in the report (html.ts gives it this id; the matched claims' badges link to it). */
export const DECISION_SECTION_ID = 'decision';

/** Whether the report has the section: the folder has matched.csv (a config with decide:). */
export const hasDecisionSection = (dir: string): boolean => existsSync(join(dir, 'matched.csv'));

/** The headline cell a sentence is about (README's n and κ). */
export const DECISION_N = 100;
export const DECISION_KAPPA = 20;

/** The rows of matched.csv as the sentences read them (numbers, nulls, lists). */
export function readMatchedCsv(file: string): MatchedRow[] {
  const { data } = Papa.parse<Record<string, string>>(readFileSync(file, 'utf8'), { header: true, skipEmptyLines: 'greedy' });
  const num = (s: string | undefined) => (s === undefined || s === '' ? null : Number(s));
  return data.map((r) => ({
    ...(r as unknown as MatchedRow),
    n: Number(r.n),
    kappa: Number(r.kappa),
    k: Number(r.k),
    known: num(r.known),
    aux: num(r.aux),
    xi: num(r.xi),
    xi_low: num(r.xi_low),
    xi_high: num(r.xi_high),
    reid1_mean: num(r.reid1_mean),
    auc_adv_mean: num(r.auc_adv_mean),
    release_bound: num(r.release_bound),
    release_max: num(r.release_max),
    release_max_coverage: num(r.release_max_coverage),
    reid1_release_bound: num(r.reid1_release_bound),
    reid1_release_max: num(r.reid1_release_max),
    auc_adv_release_bound: num(r.auc_adv_release_bound),
    auc_adv_release_max: num(r.auc_adv_release_max),
    utility_loss_mean: num(r.utility_loss_mean),
    utility_loss_se: num(r.utility_loss_se),
    ndcg_mean: num(r.ndcg_mean),
    retained: num(r.retained),
    retained_se: num(r.retained_se),
    epsilon_ldp: num(r.epsilon_ldp),
    rank: num(r.rank),
    tied_with: r.tied_with ? r.tied_with.split(';') : [],
    p_worse: num(r.p_worse),
    releasable: r.releasable === 'true',
    trials: Number(r.trials),
    clean_meets: r.clean_meets === 'true',
    below_chance: r.below_chance === 'true',
  })) as MatchedRow[];
}

const pct = (x: number) => `${formatNumber(100 * x, 2)}%`;

/** "reid@1 ≤ 1% (known 0.5)", "auc advantage ≤ 0.01 (aux 0.5)", or both joined. */
function targetWords(r: MatchedRow): string {
  return r.target
    .split(' and ')
    .map((t) => {
      const [name, value] = t.split(' <= ');
      return name === 'reid1' ? `reid@1 ≤ ${pct(Number(value))} (known ${r.known})` : `auc advantage over null ≤ ${value} (aux ${r.aux})`;
    })
    .join(' and ');
}

/** An entry as a sentence names it: ξ* to 3 digits beside its interval, and retained (or why not) or, with `loss`, u*. */
function entryWords(r: MatchedRow, loss = false): string {
  const xi = `ξ* ${r.flag === 'all' ? '≥ ' : ''}${formatNumber(r.xi!, 3)}${r.xi_interval ? ` ${r.xi_interval}` : ''}`;
  const kept =
    r.retained === null ? r.retained_note : `retains ${r.flag === 'all' ? '≥ ' : ''}${formatNumber(100 * r.retained, 2)}${r.retained_se === null ? '' : ` ± ${formatNumber(100 * r.retained_se, 1)}`}%`;
  const u = `u* ${r.flag === 'all' ? '≤ ' : ''}${formatNumber(r.utility_loss_mean!, 3)}`;
  return `${r.mechanism}${r.releasable ? '' : ' †'} (${xi}, ${loss ? `${u}, ` : ''}${kept})`;
}

const list = (xs: readonly string[]) => (xs.length === 1 ? xs[0] : `${xs.slice(0, -1).join(', ')} and ${xs[xs.length - 1]}`);

/**
 * One release's bound for the entries a sentence names: per target of the table (two targets: both,
 * whichever binds), the largest normal bound over the releasable ones; † entries left out (said).
 */
function releaseWords(named: readonly MatchedRow[]): string {
  const ok = named.filter((r) => r.releasable);
  const values = (['reid1', 'auc_adv'] as const).flatMap((name) => {
    const bounds = ok.map((r) => (name === 'reid1' ? r.reid1_release_bound : r.auc_adv_release_bound)).filter((b): b is number => b !== null);
    if (bounds.length === 0) return [];
    const b = Math.max(...bounds);
    return [name === 'reid1' ? `reid@1 ≤ ${pct(b)}` : `auc advantage ≤ ${formatNumber(b, 2)}`];
  });
  if (values.length === 0) return '';
  const left = ok.length < named.length ? '; † entries left out' : '';
  return `; one release: ${values.join(', ')} with 90% (normal prediction bound${ok.length > 1 ? ', the largest over the releasable entries named' : ''}${left})`;
}

/** One quotable sentence for one table's rows (one data set, n, κ and target). */
export function decisionSentence(rows: readonly MatchedRow[], dataset: string): string {
  const r0 = rows[0];
  const where = `${dataset}, n ${r0.n}, κ ${r0.kappa}, ${targetWords(r0)}`;
  const lead = r0.clean_meets ? 'no noise needed: clean LSH meets the target; ' : '';
  const byLoss = (a: MatchedRow, b: MatchedRow) => a.utility_loss_mean! - b.utility_loss_mean!;
  const chance = rows.filter((r) => r.below_chance).map((r) => r.mechanism);
  const chanceWords = chance.length ? `; T is below the attack's level at ξ 0 for ${list(chance)}` : '';
  const untested = rows.filter((r) => r.rank_kind === 'untested').sort(byLoss);
  if (untested.length > 0) return `${where}: ${lead}untested (m < 2): ${list(untested.map((r) => entryWords(r, true)))}${chanceWords}.`;
  const top = rows.filter((r) => r.rank_kind === 'best' || r.rank_kind === 'tied').sort(byLoss);
  const open = rows.filter((r) => r.rank_kind === 'open').sort(byLoss);
  if (top.length === 0 && open.length === 0) return `${where}: ${lead}no entry meets the target inside its ξ grid${chanceWords}.`;
  const who = [
    top.length === 0 ? '' : top.length === 1 && top[0].rank_kind === 'best' ? `best ${entryWords(top[0])}` : `tied ${list(top.map((r) => entryWords(r)))}`,
    open.length === 0 ? '' : `unranked (the grid ends before T): ${list(open.map((r) => entryWords(r)))}`,
  ]
    .filter(Boolean)
    .join('; ');
  return `${where}: ${lead}${who}${releaseWords([...top, ...open])}${chanceWords}.`;
}

/** The section's body, or null for a folder without matched.csv (a config without decide:). */
export function decisionSectionBody(dir: string): string | null {
  if (!hasDecisionSection(dir)) return null;
  const file = join(dir, 'matched.csv');
  const rows = readMatchedCsv(file);
  const tables = new Map<string, MatchedRow[]>();
  for (const r of rows) {
    const key = `${r.dataset}\u0000${r.target}\u0000${r.n}\u0000${r.kappa}`;
    tables.set(key, [...(tables.get(key) ?? []), r]);
  }
  const headline: string[] = [];
  const others: string[] = [];
  for (const dataset of [...new Set(rows.map((r) => r.dataset))]) {
    for (const target of [...new Set(rows.filter((r) => r.dataset === dataset).map((r) => r.target))]) {
      const mine = rows.filter((r) => r.dataset === dataset && r.target === target);
      const n = nearest(new Set(mine.map((r) => r.n)), DECISION_N)!;
      const kappa = nearest(new Set(mine.filter((r) => r.n === n).map((r) => r.kappa)), DECISION_KAPPA)!;
      for (const [key, t] of tables) {
        if (!key.startsWith(`${dataset}\u0000${target}\u0000`)) continue;
        (t[0].n === n && t[0].kappa === kappa ? headline : others).push(decisionSentence(t, dataset));
      }
    }
  }
  const li = (s: string) => `<li>${escapeHtml(s)}</li>`;
  // the headline, then the caveat line right under it: both on the first screen at 1280 × 800 (below
  // the page's title and contents); what the words mean and the rest after the folded cells
  return [
    `<ul>\n${headline.map(li).join('\n')}\n</ul>`,
    `<p class="note">${escapeHtml(MATCHED_CAVEAT)}</p>`,
    others.length ? `<details><summary>every other (n, κ)</summary>\n<ul>\n${others.map(li).join('\n')}\n</ul>\n</details>` : '',
    '<p class="note">Per table (lshdp choose, docs/ATTACKS.md), the entries no other is shown better than: ξ* [90% bootstrap interval], the share of clean LSH’s gain over random neighbours retained, and one release’s 90% upper prediction bound. Paired two-sided t tests of u* between every two entries of a table, Holm over its pairs at α 0.05, no correction across tables: tied = not shown apart (smallest u* first), not equal; unranked = the grid ends before T (flag all: u* an upper bound on the loss). † cannot be released (hash functions drawn from the secret noise). A ξ chosen by attacking the very users released is a function of their data and not covered by the ξ guarantee: calibrate on public or proxy data.</p>',
  ].join('\n');
}
