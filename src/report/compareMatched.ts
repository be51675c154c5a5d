/**
 * `lshdp compare`'s matched view: where both runs have matched.csv (a config with a `decide:`
 * block), its rows paired on (data set, n, κ, k, target, entry), each with both runs' ξ* and 90%
 * interval, u* ± SE, retained and rank, and flagged for what changes a decision: the entry's flag
 * (none, interior, all) or rank kind (best, tied, worse, …) changed, ξ* intervals that do not
 * overlap, |z| of u* beyond the threshold, a changed setting (known, aux, trials), or a row in one
 * run only.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { num, optNum, readCsv, str, type Row, type Table } from './csvTable.js';
import { MATCHED_COMPARED } from './compareMetrics.js';
import { changeText, type CompareRow, type CompareStatus, type SettingChange } from './compareTypes.js';
import { fileError } from '../util/errors.js';
import type { MatchedRow } from '../decide/choose.js';
import type { CrossingFlag } from '../decide/crossing.js';

/** The columns compare needs; matched.csv has these and more. */
const NEEDED = [
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
  'utility_loss_mean',
  'utility_loss_se',
  'retained',
  'rank',
  'rank_kind',
  'trials',
] as const;

/** What compare reads of a matched.csv row (docs/OUTPUTS.md): those columns of choose's row, typed as it writes them. */
export type MatchedCompared = Pick<MatchedRow, (typeof NEEDED)[number]>;

const FLAGS: readonly CrossingFlag[] = ['none', 'interior', 'all'];
const isFlag = (s: string): s is CrossingFlag => (FLAGS as readonly string[]).includes(s);

function rowOf(t: Table, r: Row): MatchedCompared {
  const flag = str(t, r, 'flag');
  if (!isFlag(flag)) throw fileError(t.file, r.line, `column flag: "${flag}" is not one of ${FLAGS.join(', ')}`);
  return {
    dataset: str(t, r, 'dataset'),
    n: num(t, r, 'n'),
    kappa: num(t, r, 'kappa'),
    k: num(t, r, 'k'),
    known: optNum(t, r, 'known'),
    aux: optNum(t, r, 'aux'),
    target: str(t, r, 'target'),
    mechanism: str(t, r, 'mechanism'),
    xi: optNum(t, r, 'xi'),
    xi_low: optNum(t, r, 'xi_low'),
    xi_high: optNum(t, r, 'xi_high'),
    xi_interval: r.cell('xi_interval'),
    flag,
    utility_loss_mean: optNum(t, r, 'utility_loss_mean'),
    utility_loss_se: optNum(t, r, 'utility_loss_se'),
    retained: optNum(t, r, 'retained'),
    rank: optNum(t, r, 'rank'),
    rank_kind: str(t, r, 'rank_kind'),
    trials: num(t, r, 'trials'),
  };
}

/** The folder's matched.csv as compare reads it, or null when it has none; a malformed file is a one-line error naming file, line and column. */
export function readMatchedOf(dir: string): { file: string; rows: MatchedCompared[] } | null {
  const file = join(dir, MATCHED_COMPARED.file);
  if (!existsSync(file)) return null;
  const { table } = readCsv(file, [NEEDED]);
  return { file, rows: table.rows.map((r) => rowOf(table, r)) };
}

/** The fields a matched row adds after every other column (csv, json): empty on the other files' rows. */
export const MATCHED_EXTRA_COLUMNS = ['target', 'a_xi', 'a_xi_interval', 'b_xi', 'b_xi_interval', 'a_flag', 'b_flag', 'a_rank', 'b_rank', 'a_retained', 'b_retained'] as const;

/** Settings that make two matched rows different decisions rather than two samples of one. */
const SETTINGS = ['known', 'aux', 'trials'] as const;

const key = (r: MatchedCompared) => [r.dataset, r.n, r.kappa, r.k, r.target, r.mechanism].join('\u0000');

/** The rank as compared and printed: its kind, and for a worse entry its position ("worse 3"). */
export const rankWord = (r: MatchedCompared): string => (r.rank_kind === 'worse' && r.rank !== null ? `worse ${r.rank}` : r.rank_kind);

/**
 * ξ*'s 90% interval as [low, high] on the real line, from matched.csv's numbers and, for an open
 * side, its text (src/decide/choose.ts intervalText): `< ξ_0` and `none` below the grid are −∞
 * below and ξ_0 (0) above; `> ξ_J` is +∞ above and ξ_J below ("[> 20]": every resample beyond the
 * grid); null without an interval (m < 2, or none).
 */
export function intervalOf(r: MatchedCompared): [number, number] | null {
  const text = r.xi_interval.trim();
  if (text === '' || r.flag === 'none') return null;
  const sides = text.replace(/^\[|\]$/g, '').split(', ');
  // "> 20" → 20, "< 1" → 1, "none" → 0 (a grid starting at 0)
  const edge = (s: string) => (s === 'none' ? 0 : Number(s.slice(2)));
  if (sides.length === 1) return sides[0].startsWith('>') ? [edge(sides[0]), Number.POSITIVE_INFINITY] : [Number.NEGATIVE_INFINITY, edge(sides[0])];
  return [r.xi_low ?? Number.NEGATIVE_INFINITY, r.xi_high ?? Number.POSITIVE_INFINITY];
}

/** Whether two intervals are disjoint (null: nothing to compare). */
function disjoint(a: [number, number] | null, b: [number, number] | null): boolean {
  return a !== null && b !== null && (a[1] < b[0] || b[1] < a[0]);
}

/** The fields of a matched row that are not the measure: the coordinates, target, and each run's ξ*, flag, rank and retained. */
function sides(a: MatchedCompared | null, b: MatchedCompared | null): Pick<CompareRow, 'dataset' | 'n' | 'kappa' | 'k' | 'mechanism' | 'xi' | 'metric'> & Record<string, unknown> {
  const r = (a ?? b)!;
  return {
    dataset: r.dataset,
    n: r.n,
    kappa: r.kappa,
    k: r.k,
    mechanism: r.mechanism,
    xi: null,
    metric: MATCHED_COMPARED.metric,
    known: r.known ?? undefined,
    aux: r.aux ?? undefined,
    target: r.target,
    a_xi: a?.xi ?? null,
    a_xi_interval: a?.xi_interval ?? null,
    b_xi: b?.xi ?? null,
    b_xi_interval: b?.xi_interval ?? null,
    a_flag: a?.flag ?? null,
    b_flag: b?.flag ?? null,
    a_rank: a ? rankWord(a) : null,
    b_rank: b ? rankWord(b) : null,
    a_retained: a?.retained ?? null,
    b_retained: b?.retained ?? null,
  };
}

/** One pair of rows: u*'s difference and z, and what changed in the decision. */
function judgePair(a: MatchedCompared, b: MatchedCompared, threshold: number): Pick<CompareRow, 'diff' | 'z' | 'status' | 'note' | 'changes'> {
  const changes: SettingChange[] = SETTINGS.filter((s) => a[s] !== b[s]).map((s) => ({ setting: s, from: a[s], to: b[s] }));
  const notes: string[] = [];
  if (changes.length) notes.push(`setting changed: ${changes.map(changeText).join('; ')}`);
  if (a.flag !== b.flag) notes.push(`flag ${a.flag} → ${b.flag}`);
  if (a.rank_kind !== b.rank_kind) notes.push(`rank ${rankWord(a)} → ${rankWord(b)}`);
  if (disjoint(intervalOf(a), intervalOf(b))) notes.push(`ξ* intervals ${a.xi_interval} and ${b.xi_interval} do not overlap`);
  const [ma, mb] = [a.utility_loss_mean, b.utility_loss_mean];
  const diff = ma !== null && mb !== null ? mb - ma : null;
  const sd = a.utility_loss_se !== null && b.utility_loss_se !== null ? Math.hypot(a.utility_loss_se, b.utility_loss_se) : null;
  const z = diff !== null && sd !== null && sd > 0 ? diff / sd : null;
  if (z !== null && Math.abs(z) > threshold) notes.push(`u* |z| > ${threshold}`);
  else if (diff !== null && diff !== 0 && z === null) notes.push('u* differs without a standard error (m < 2): any difference counts');
  const same =
    a.xi === b.xi &&
    a.xi_interval === b.xi_interval &&
    a.flag === b.flag &&
    ma === mb &&
    a.utility_loss_se === b.utility_loss_se &&
    a.retained === b.retained &&
    rankWord(a) === rankWord(b) &&
    !changes.length;
  const status: CompareStatus = notes.length ? 'flagged' : same ? 'same' : 'within';
  return { diff, z, status, note: notes.join('; '), ...(changes.length ? { changes } : {}) };
}

/** matched.csv of both runs, row by row in A's order (rows only in B last); `a_mean`/`b_mean` are u* (empty for none). */
export function compareMatched(a: readonly MatchedCompared[], b: readonly MatchedCompared[], threshold: number): CompareRow[] {
  const bByKey = new Map(b.map((r) => [key(r), r]));
  const aKeys = new Set(a.map(key));
  const rows: CompareRow[] = [];
  for (const ra of a) {
    const rb = bByKey.get(key(ra)) ?? null;
    const measures = { a_mean: ra.utility_loss_mean, a_se: ra.utility_loss_se, b_mean: rb?.utility_loss_mean ?? null, b_se: rb?.utility_loss_se ?? null };
    if (rb === null) rows.push({ ...sides(ra, null), ...measures, diff: null, z: null, status: 'only_a', note: 'not in run B' });
    else rows.push({ ...sides(ra, rb), ...measures, ...judgePair(ra, rb, threshold) });
  }
  for (const rb of b) {
    if (aKeys.has(key(rb))) continue;
    rows.push({ ...sides(null, rb), a_mean: null, a_se: null, b_mean: rb.utility_loss_mean, b_se: rb.utility_loss_se, diff: null, z: null, status: 'only_b', note: 'not in run A' });
  }
  return rows;
}
