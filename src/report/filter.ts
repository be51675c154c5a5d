/**
 * Row filters shared by `lshdp plot` and `lshdp table utility`: keep the utility rows of some
 * mechanism labels, κ, k and n. A value the folder does not have is a user error naming the
 * values it does have, so a typo never yields an empty figure or table.
 */
import { UserError } from '../util/errors.js';
import { didYouMean } from '../util/didYouMean.js';
import { uniqueInOrder, type AttackRow, type UtilityRow } from './read.js';

/** What a filter reads of a row: utility.csv's rows, and recommend.csv's (whose pop rows have no k). */
export interface FilterableRow {
  mechanism: string;
  kappa: number | null;
  k: number | null;
  n: number;
}

export interface UtilityFilter {
  /** mechanism labels (utility.csv's `mechanism`) */
  mechanisms?: string[];
  kappa?: number[];
  k?: number[];
  n?: number[];
}

/** True when no filter is set. */
export function isEmptyFilter(f: UtilityFilter): boolean {
  return !f.mechanisms && !f.kappa && !f.k && !f.n;
}

function check<T>(flag: string, wanted: T[] | undefined, have: T[], source: string): void {
  if (!wanted) return;
  const missing = wanted.filter((w) => !have.includes(w));
  if (missing.length) {
    const close = typeof missing[0] === 'string' ? didYouMean(missing[0], have as string[]) : null;
    throw new UserError(`--${flag}: ${missing.join(', ')} not in ${source} (it has ${have.length ? have.join(', ') : 'none'})${close ? `; did you mean ${close}?` : ''}`);
  }
}

/**
 * The rows passing every given filter, in file order. Rows without κ (exact, and mechanisms that
 * use no hash bits) pass a `kappa` filter: they hold for every κ; rows without k (recommend.csv's
 * pop) pass a `k` filter alike. The filter is first checked against the rows (a value they lack
 * is an error naming `source`) unless `source` is null.
 */
export function filterUtility<R extends FilterableRow = UtilityRow>(rows: R[], f: UtilityFilter, source: string | null = 'utility.csv'): R[] {
  if (source !== null) checkFilter(rows, f, source);
  return rows.filter(
    (r) =>
      (!f.mechanisms || f.mechanisms.includes(r.mechanism)) &&
      (!f.kappa || r.kappa === null || f.kappa.includes(r.kappa)) &&
      (!f.k || r.k === null || f.k.includes(r.k)) &&
      (!f.n || f.n.includes(r.n)),
  );
}

/** Throws when a filter names a value `rows` do not have (`source` names the file in the message). */
export function checkFilter(rows: readonly FilterableRow[], f: UtilityFilter, source: string): void {
  check('mechanisms', f.mechanisms, uniqueInOrder(rows.map((r) => r.mechanism)), source);
  check('kappa', f.kappa, uniqueInOrder(rows.flatMap((r) => (r.kappa === null ? [] : [r.kappa]))), source);
  check('k', f.k, uniqueInOrder(rows.flatMap((r) => (r.k === null ? [] : [r.k]))), source);
  check('n', f.n, uniqueInOrder(rows.map((r) => r.n)), source);
}

/** The rows of attack.csv `lshdp table attack` keeps: some mechanism labels, κ, n, ξ and known shares. */
export interface AttackFilter {
  mechanisms?: string[];
  kappa?: number[];
  n?: number[];
  /** rows without ξ (vanilla LSH, the no-noise ceiling) pass it */
  xi?: number[];
  known?: number[];
}

/** The attack rows passing every given filter, in file order; a value the rows lack is an error naming `source`. */
export function filterAttack(rows: readonly AttackRow[], f: AttackFilter, source: string): AttackRow[] {
  check('mechanisms', f.mechanisms, uniqueInOrder(rows.map((r) => r.mechanism)), source);
  check('kappa', f.kappa, uniqueInOrder(rows.map((r) => r.kappa)), source);
  check('n', f.n, uniqueInOrder(rows.map((r) => r.n)), source);
  check('xi', f.xi, uniqueInOrder(rows.flatMap((r) => (r.xi === null ? [] : [r.xi]))), source);
  check('known', f.known, uniqueInOrder(rows.map((r) => r.known)), source);
  return rows.filter(
    (r) =>
      (!f.mechanisms || f.mechanisms.includes(r.mechanism)) &&
      (!f.kappa || f.kappa.includes(r.kappa)) &&
      (!f.n || f.n.includes(r.n)) &&
      (!f.xi || r.xi === null || f.xi.includes(r.xi)) &&
      (!f.known || f.known.includes(r.known)),
  );
}
