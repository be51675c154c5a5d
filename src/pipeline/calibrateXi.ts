/**
 * The ξ values `lshdp calibrate` adds, per entry and cell: the search proposes a ξ for one (data set,
 * n, κ, entry), and it goes into that entry's per-cell list for that cell alone (the config's
 * `xi: { at: [{ dataset, n, kappa, xi }] }`, src/experiment/grid.ts entryXi), so it is computed in
 * that cell only, not in every cell of the grid (an entry's plain `xi:` list serves every cell).
 */
import { thinProposals } from '../decide/calibrate.js';
import type { XiAt } from '../experiment/config/schema.js';
import type { CellPlace } from '../experiment/grid.js';

/** Per entry label, per cell (`dataset n kappa`), the cell and its ξ values. */
export type CellXi = Map<string, Map<string, { place: CellPlace; xi: number[] }>>;

export const placeKey = (c: CellPlace): string => `${c.dataset}\u0000${c.n}\u0000${c.kappa}`;

/**
 * Adds a round's proposals (per label and cell, thinned to the search's resolution: thinProposals)
 * to `added`; returns what was added, for the log.
 */
export function addProposals(added: CellXi, proposals: CellXi): { label: string; xi: number[]; cells: number }[] {
  const log: { label: string; xi: number[]; cells: number }[] = [];
  for (const [label, byCell] of proposals) {
    const mine = added.get(label) ?? new Map();
    added.set(label, mine);
    const all = new Set<number>();
    for (const [k, { place, xi }] of byCell) {
      const thinned = thinProposals(xi);
      const had = mine.get(k)?.xi ?? [];
      mine.set(k, { place, xi: [...new Set([...had, ...thinned])].sort((a, b) => a - b) });
      for (const x of thinned) all.add(x);
    }
    log.push({ label, xi: [...all].sort((a, b) => a - b), cells: byCell.size });
  }
  return log;
}

/** An entry's added values as `at:` items, in the grid's order of cells (data sets as the config lists them, then n, then κ). */
export function atItems(byCell: Map<string, { place: CellPlace; xi: number[] }>, datasets: readonly string[]): XiAt[] {
  return [...byCell.values()]
    .sort((a, b) => datasets.indexOf(a.place.dataset) - datasets.indexOf(b.place.dataset) || a.place.n - b.place.n || a.place.kappa - b.place.kappa)
    .map(({ place, xi }) => ({ dataset: place.dataset, n: place.n, kappa: place.kappa, xi }));
}

const sameCell = (a: XiAt, b: XiAt): boolean => a.dataset === b.dataset && a.n === b.n && a.kappa === b.kappa;

/**
 * The config's entries (as the effective config writes them) with each label's added values in its
 * per-cell list: `xi: { values, at }` (values: the entry's own list for every cell, if it had one;
 * at: its own items, an added cell's values merged into an item naming exactly that cell).
 */
export function entriesWith(base: Record<string, unknown>[], labels: string[], added: CellXi, datasets: readonly string[]): Record<string, unknown>[] {
  return base.map((entry, i) => {
    const mine = added.get(labels[i]);
    if (!mine || mine.size === 0) return entry;
    const own = entry.xi as number[] | { values?: number[]; at: XiAt[] } | undefined;
    const values = Array.isArray(own) ? own : own?.values;
    const at: XiAt[] = Array.isArray(own) || own === undefined ? [] : own.at.map((a) => ({ ...a, xi: [...a.xi] }));
    for (const item of atItems(mine, datasets)) {
      const same = at.find((a) => sameCell(a, item));
      if (same) same.xi = [...new Set([...same.xi, ...item.xi])].sort((a, b) => a - b);
      else at.push(item);
    }
    return { ...entry, xi: { ...(values ? { values } : {}), at } };
  });
}
