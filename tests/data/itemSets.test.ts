import { describe, expect, it } from 'vitest';
import { itemSetsOf } from '../../src/data/itemSets.js';
import type { UserVectors } from '../../src/data/types.js';

/** CSR vectors from rows of (column, value). */
function vectors(userIds: string[], rows: [number, number][][], n = 4): UserVectors {
  const rowPtr = new Int32Array(rows.length + 1);
  rows.forEach((r, u) => {
    rowPtr[u + 1] = rowPtr[u]! + r.length;
  });
  return {
    dataset: 'd',
    n,
    userIds,
    itemIds: ['i0', 'i1', 'i2', 'i3'].slice(0, n),
    rowPtr,
    colIdx: Int32Array.from(rows.flat(), (e) => e[0]),
    values: Float64Array.from(rows.flat(), (e) => e[1]),
    dropped: 0,
  };
}

const rowsOf = (s: { rowPtr: Int32Array; colIdx: Int32Array }) => Array.from({ length: s.rowPtr.length - 1 }, (_, u) => Array.from(s.colIdx.subarray(s.rowPtr[u]!, s.rowPtr[u + 1]!)));

describe('item sets before centring', () => {
  it('of centred vectors: the uncentred view, row by row (a rating at the user mean is an item, a user dropped after centring is not a row)', () => {
    // user b rated items 0, 1, 2 as 3, 4, 5: centred, item 1 is 0 and not stored; user c rated everything alike and was dropped
    const centred = vectors(
      ['a', 'b'],
      [
        [
          [0, 0.7],
          [3, -0.7],
        ],
        [
          [0, -0.7],
          [2, 0.7],
        ],
      ],
    );
    const raw = vectors(
      ['a', 'b', 'c'],
      [
        [
          [0, 0.6],
          [3, 0.8],
        ],
        [
          [0, 0.42],
          [1, 0.56],
          [2, 0.7],
        ],
        [[1, 1]],
      ],
    );
    const sets = itemSetsOf(centred, { centred: true, uncentred: raw });
    expect(rowsOf(sets)).toEqual([
      [0, 3],
      [0, 1, 2],
    ]);
    expect(sets.n).toBe(4);
    expect(() => itemSetsOf(centred, { centred: true })).toThrow(/uncentred view/);
    expect(() => itemSetsOf(centred, { centred: true, uncentred: vectors(['a', 'b'], [[], []], 3) })).toThrow(/other columns/);
  });

  it('of uncentred vectors: their support; with a split: the training items', () => {
    const v = vectors(['a'], [[[1, 1]]]);
    expect(rowsOf(itemSetsOf(v, { centred: false }))).toEqual([[1]]);
    const recommend = { trainPtr: Int32Array.of(0, 2), trainCol: Int32Array.of(1, 3), heldPtr: Int32Array.of(0, 1), heldCol: Int32Array.of(2) };
    expect(rowsOf(itemSetsOf(v, { centred: true, recommend }))).toEqual([[1, 3]]);
  });
});
