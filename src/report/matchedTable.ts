/**
 * The matched tables (`lshdp choose`, matched.csv, tables/matched.md): one table per (data set, n,
 * κ) and target, in markdown, CSV, LaTeX or JSON, each with the caveat line of
 * src/decide/choose.ts. The numbers are src/decide's; this file only lays them out.
 */
import { MATCHED_CAVEAT, type MatchedRow, type MatchedTable } from '../decide/choose.js';
import { createRequire } from 'node:module';
import { UNRELEASABLE_MARK, UNRELEASABLE_NOTE } from '../mechanisms/releasable.js';
import { escapeLatex, formatMeanSe, formatNumber, latexTabular, markdownTable, type TableFormat } from './tables.js';

/** matched.csv's columns, in order (docs/OUTPUTS.md). */
export const MATCHED_COLUMNS: readonly (keyof MatchedRow)[] = [
  'dataset',
  'n',
  'kappa',
  'k',
  'known',
  'aux',
  'target',
  'mechanism',
  'xi',
  'xi_low',
  'xi_high',
  'xi_interval',
  'flag',
  'binding',
  'reid1_mean',
  'auc_adv_mean',
  'release_bound',
  'release_max',
  'release_max_coverage',
  'reid1_release_bound',
  'reid1_release_max',
  'auc_adv_release_bound',
  'auc_adv_release_max',
  'utility_loss_mean',
  'utility_loss_se',
  'ndcg_mean',
  'retained',
  'retained_se',
  'retained_note',
  'epsilon_ldp',
  'rank',
  'rank_kind',
  'tied_with',
  'p_worse',
  'releasable',
  'trials',
  'clean_meets',
  'below_chance',
];

const pct = (x: number) => `${formatNumber(100 * x, 2)}%`;
const xiText = (x: number) => formatNumber(x, 3);

/** A success as printed: reid@1 in %, the auc advantage as a number. */
function successText(name: 'reid1' | 'auc_adv', x: number): string {
  return name === 'reid1' ? pct(x) : formatNumber(x, 2);
}

function releaseText(r: MatchedRow): string {
  if (r.flag === 'none') return '';
  // every target's bounds (two targets: both, each in its unit; the binding one is not the only risk)
  const bounds = (
    [
      ['reid1', 'reid@1 ', r.reid1_release_bound, r.reid1_release_max],
      ['auc_adv', 'auc adv ', r.auc_adv_release_bound, r.auc_adv_release_max],
    ] as const
  ).filter(([, , b]) => b !== null);
  if (bounds.length === 0) return 'n/a (m < 2)';
  const two = bounds.length > 1;
  const normal = bounds.map(([name, what, b]) => `${two ? what : ''}≤ ${successText(name, b!)}`).join(', ');
  const max = bounds.map(([name, , , x]) => successText(name, x!)).join(', ');
  return `${normal} (90%, normal); max ${max} (${pct(r.release_max_coverage!)})`;
}

function retainedText(r: MatchedRow): string {
  if (r.flag === 'none') return '';
  if (r.retained === null) return r.retained_note;
  const se = r.retained_se === null ? '' : ` ± ${formatNumber(100 * r.retained_se, 2)}`;
  return `${r.flag === 'all' ? '≥ ' : ''}${formatNumber(100 * r.retained, 2)}${se}%`;
}

function rankText(r: MatchedRow): string {
  switch (r.rank_kind) {
    case 'best':
      return 'best';
    case 'tied':
      return r.tied_with.length ? `tied with ${r.tied_with.join(', ')}` : 'tied';
    case 'worse':
      return `${r.rank} (worse, Holm p = ${formatNumber(r.p_worse!, 2)})`;
    case 'open':
      return 'unranked: the grid ends before T';
    case 'untested':
      return 'untested (m < 2)';
    default:
      return '–';
  }
}

/** The table's note on its ranking: what its words mean, and which entry has the smallest observed u*. */
function rankNote(t: MatchedTable): string | null {
  const ranked = t.rows.filter((r) => r.rank !== null && r.utility_loss_mean !== null);
  if (ranked.length === 0) return null;
  const best = ranked.reduce((a, b) => (b.utility_loss_mean! < a.utility_loss_mean! ? b : a));
  return `Smallest observed u*: ${best.mechanism}. Paired two-sided t tests of u* between every two entries, Holm over the table's pairs at α ${t.alpha}: worse = some entry shown better; tied with = not shown apart from those; best = shown better than every other entry.`;
}

const HEADER = ['entry', 'ξ* [90%]', 'success at ξ*', 'one release', 'u* ± SE', 'retained', 'ε_LDP at ξ*', 'flag', 'rank'];

/** The header of a table: with recommendations, NDCG@N at ξ* after u*. */
function headerOf(t: MatchedTable): string[] {
  return t.ndcg ? [...HEADER.slice(0, 5), `NDCG@${t.ndcg.top} at ξ*`, ...HEADER.slice(5)] : HEADER;
}

function cells(r: MatchedRow, t: MatchedTable): string[] {
  const none = r.flag === 'none';
  const success = [r.reid1_mean !== null ? `reid@1 ${pct(r.reid1_mean)}` : '', r.auc_adv_mean !== null ? `auc adv ${formatNumber(r.auc_adv_mean, 2)}` : ''].filter(Boolean).join(', ');
  const out = [
    r.releasable ? r.mechanism : `${r.mechanism} ${UNRELEASABLE_MARK}`,
    none ? '–' : `${xiText(r.xi!)} ${r.xi_interval}`.trim(),
    success,
    releaseText(r),
    none ? '–' : formatMeanSe(r.utility_loss_mean!, r.utility_loss_se),
    retainedText(r),
    r.epsilon_ldp === null ? '–' : formatNumber(r.epsilon_ldp, 3),
    r.flag,
    rankText(r),
  ];
  if (t.ndcg) out.splice(5, 0, r.ndcg_mean === null ? '–' : formatNumber(r.ndcg_mean, 3));
  return out;
}

function titleOf(t: MatchedTable): string {
  const at = [`k ${t.k}`, t.known !== null ? `known ${t.known}` : '', t.aux !== null ? `aux ${t.aux}` : ''].filter(Boolean).join(', ');
  return `${t.dataset}, n ${t.n}, κ ${t.kappa} (${at}): ${t.target.replace(/<=/g, '≤')}, ${t.trials} trials`;
}

/** The none-at-ξ-0 note, with the success measured at ξ 0 (chance up to noise, or a leak without noise: docs/ATTACKS.md). */
function belowChanceNote(t: MatchedTable): string {
  const measured = t.at_zero.map((z) => `${z.mechanism} ${z.name === 'reid1' ? `reid@1 ${pct(z.value)}` : `auc adv ${formatNumber(z.value, 2)}`}`).join(', ');
  return `T is below this attack's level at ξ = 0 (its chance level, up to noise) for the entries flagged none there${measured ? `; measured at ξ 0: ${measured}` : ''}.`;
}

function notesOf(t: MatchedTable): string[] {
  const notes: string[] = [];
  if (t.clean_meets) notes.push('No noise needed: clean LSH meets T.');
  if (t.ndcg)
    notes.push(`NDCG@${t.ndcg.top} of the baselines: pop ${t.ndcg.pop === null ? '–' : formatNumber(t.ndcg.pop, 3)}, exact neighbours ${t.ndcg.exact === null ? '–' : formatNumber(t.ndcg.exact, 3)}.`);
  if (t.below_chance) notes.push(belowChanceNote(t));
  if (t.rows.some((r) => !r.releasable)) notes.push(UNRELEASABLE_NOTE);
  if (t.rows.some((r) => r.flag === 'all'))
    notes.push('all: every ξ of the grid meets T; ξ* is the largest and u* an upper bound on the loss at T (retained "≥"): it may rank better, never worse (unranked: the grid ends before T).');
  const rank = rankNote(t);
  if (rank) notes.push(rank);
  for (const s of t.skipped) notes.push(`left out: ${s}`);
  notes.push(MATCHED_CAVEAT);
  return notes;
}

function markdown(tables: readonly MatchedTable[]): string {
  return tables
    .map((t) => {
      const rows = t.rows.map((r) => cells(r, t));
      return `### ${titleOf(t)}\n\n${markdownTable(headerOf(t), rows)}\n${notesOf(t).join('\n')}\n`;
    })
    .join('\n');
}

function latex(tables: readonly MatchedTable[]): string {
  return tables
    .map((t) => {
      const rows = t.rows.map((r) => cells(r, t).map(escapeLatex));
      const header = headerOf(t);
      // the title and the notes (the caveat among them) typeset under the table, not a % comment a reader never sees
      const notes = [`${titleOf(t)}.`, ...notesOf(t)].map(escapeLatex).join(' ');
      return `${latexTabular(header.map(escapeLatex), rows, 'l' + 'r'.repeat(header.length - 1))}\\par\\smallskip\\noindent{\\footnotesize ${notes}}\\par\n`;
    })
    .join('\n');
}

// papaparse for the CSV form only, loaded on first use (as tables.ts does)
const require = createRequire(import.meta.url);
const papa = (): typeof import('papaparse') => require('papaparse') as typeof import('papaparse');

const csvValue = (v: unknown): string => (v === null ? '' : Array.isArray(v) ? v.join(';') : String(v));

/** The tables in `format`: md (one section per table), csv (matched.csv), latex, json (one object per row). */
export function matchedTables(tables: readonly MatchedTable[], format: TableFormat): string {
  const rows = tables.flatMap((t) => t.rows);
  switch (format) {
    case 'md':
      return markdown(tables);
    case 'latex':
      return latex(tables);
    case 'json':
      return `${JSON.stringify(rows, null, 2)}\n`;
    default:
      return `${papa().unparse({ fields: [...MATCHED_COLUMNS], data: rows.map((r) => MATCHED_COLUMNS.map((c) => csvValue(r[c]))) }, { newline: '\n' })}\n`;
  }
}
