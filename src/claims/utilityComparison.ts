/**
 * The skeleton of the utility claims that compare two sets of series cell by cell (`comparison`),
 * and how their cells are keyed and named.
 */
import { allSamples, directionalCell, equivalenceCell, pairedSamples, where, type Series } from './grid.js';
import { decide, needs, notTested, type DatasetContext, type Outcome } from './family.js';

/** Pairs (a, b) with equal key, in a's order; `label` says whether either side has several entries. */
export function match(as: Series[], bs: Series[], key: (s: Series) => string): Pair[] {
  const byKey = new Map<string, Series[]>();
  for (const b of bs) {
    const k = key(b);
    byKey.set(k, [...(byKey.get(k) ?? []), b]);
  }
  const label = new Set(as.map((s) => s.mechanism)).size > 1 || new Set(bs.map((s) => s.mechanism)).size > 1;
  const out: Pair[] = [];
  for (const a of as) for (const b of byKey.get(key(a)) ?? []) out.push({ a, b, label });
  return out;
}

export const cellKey = (s: Series) => JSON.stringify([s.n, s.kappa, s.k, s.xi]);
export const cellKeyNoXi = (s: Series) => JSON.stringify([s.n, s.kappa, s.k]);
export const cellKeyNoKappa = (s: Series) => JSON.stringify([s.n, s.k, s.xi]);

export function labelled(p: Pair, opts: { xi?: boolean; kappa?: boolean } = {}): string {
  const base = where(p.a, opts);
  return p.label ? `${base} [${p.a.mechanism} vs ${p.b.mechanism}]` : base;
}

/**
 * The skeleton of a claim that compares two sets of series cell by cell: it is not tested unless
 * its requirements hold; side a's series pair up with side b's of equal `key`, and each pair is one
 * cell, a one-sided test that a's loss is below b's or, with a margin, an equivalence test (TOST).
 * Paired t-tests where both sides share the trial's hyperplanes, Welch otherwise.
 */
interface Comparison {
  /** [holds, what is needed]: the claim is not tested unless all hold */
  needs: [boolean, string][];
  a: Series[];
  b: Series[];
  key: (s: Series) => string;
  paired: boolean;
  /** equivalence within ± margin(b) instead of "a below b" */
  margin?: (b: Series) => number;
  /** how a cell is named (default: where a is, and the entries when either side has several) */
  where?: (p: Pair) => string;
  words: { forWord: string; againstWord: string; tests: string };
  whenEmpty: string;
  notes?: string[];
}

export type Pair = { a: Series; b: Series; label: boolean };

export function comparison(ctx: DatasetContext, c: Comparison): Outcome {
  const missing = needs(c.needs);
  if (missing) return notTested(missing);
  const where = c.where ?? ((p: Pair) => labelled(p));
  const cells = match(c.a, c.b, c.key).map((p) => {
    const samples = c.paired ? pairedSamples(p.a.byTrial, p.b.byTrial) : allSamples(p.a.byTrial, p.b.byTrial);
    return c.margin ? equivalenceCell(where(p), samples, c.paired, c.margin(p.b)) : directionalCell(where(p), samples, c.paired, 'below');
  });
  return decide(cells, ctx, c.words, c.whenEmpty, c.margin ? 'equivalence' : 'directional', c.notes ?? []);
}
