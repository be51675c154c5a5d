/**
 * Where calibrate's added ξ go (src/pipeline/calibrateXi.ts): per entry and cell, thinned to 5% per
 * cell, written as the entry's `xi: { values, at }` in the grid's order of cells, merged into an item
 * naming exactly that cell, an entry's own list for every cell kept as `values`.
 */
import { describe, expect, it } from 'vitest';
import { addProposals, entriesWith, placeKey, type CellXi } from '../../src/pipeline/calibrateXi.js';

const cell = (dataset: string, n: number, kappa: number, xi: number[]) => [placeKey({ dataset, n, kappa }), { place: { dataset, n, kappa }, xi }] as const;

describe('calibrate: the added ξ per cell', () => {
  it('adds per cell, thinned to 5% within a cell, and logs each entry’s values and cells', () => {
    const added: CellXi = new Map();
    const log = addProposals(added, new Map([['vmf', new Map([cell('b', 100, 20, [40]), cell('a', 1000, 20, [80, 82, 160])])]]));
    expect(log).toEqual([{ label: 'vmf', xi: [40, 80, 160], cells: 2 }]);
    addProposals(added, new Map([['vmf', new Map([cell('a', 1000, 20, [102])])]]));
    expect(added.get('vmf')!.get(placeKey({ dataset: 'a', n: 1000, kappa: 20 }))!.xi).toEqual([80, 102, 160]);
  });

  it('writes xi: { values, at } in the grid’s order of cells, keeping the entry’s own values and items', () => {
    const added: CellXi = new Map([
      ['vmf', new Map([cell('b', 100, 20, [40]), cell('a', 1000, 20, [80]), cell('a', 100, 50, [5.5])])],
      ['lshrr', new Map([cell('a', 100, 20, [3.1])])],
      ['laplsh', new Map([cell('a', 100, 20, [7])])],
    ]);
    const base = [{ name: 'exact' }, { name: 'vmf', xi: [30] }, { name: 'lshrr', accountant: 'paper', xi: { at: [{ dataset: 'a', n: 100, kappa: 20, xi: [3.5] }] } }, { name: 'laplsh' }];
    const out = entriesWith(base, ['exact', 'vmf', 'lshrr', 'laplsh'], added, ['a', 'b']);
    expect(out[0]).toBe(base[0]);
    expect(out[1]).toEqual({
      name: 'vmf',
      xi: {
        values: [30],
        at: [
          { dataset: 'a', n: 100, kappa: 50, xi: [5.5] },
          { dataset: 'a', n: 1000, kappa: 20, xi: [80] },
          { dataset: 'b', n: 100, kappa: 20, xi: [40] },
        ],
      },
    });
    expect(out[2]).toEqual({ name: 'lshrr', accountant: 'paper', xi: { at: [{ dataset: 'a', n: 100, kappa: 20, xi: [3.1, 3.5] }] } });
    expect(out[3]).toEqual({ name: 'laplsh', xi: { at: [{ dataset: 'a', n: 100, kappa: 20, xi: [7] }] } });
    // the base entries are not changed
    expect(base[2]).toEqual({ name: 'lshrr', accountant: 'paper', xi: { at: [{ dataset: 'a', n: 100, kappa: 20, xi: [3.5] }] } });
  });
});
