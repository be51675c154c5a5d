import { describe, expect, it } from 'vitest';
import { combineRows, RawRows } from '../../src/data/interactions.js';
import { IntInterner } from '../../src/data/interning.js';
import { makeRng } from '../../src/random/rng.js';

/** Rows [user id, item id, value, time] combined by brute force: users and items in numeric order. */
function reference(rows: [number, number, number, number][], combine: 'last' | 'sum' | 'count', keep: (u: number) => boolean) {
  const pairs = new Map<number, Map<number, { v: number; t: number }>>();
  for (const [u, i, v, t] of rows) {
    if (!keep(u)) continue;
    if (!pairs.has(u)) pairs.set(u, new Map());
    const m = pairs.get(u)!;
    const was = m.get(i);
    if (!was) m.set(i, { v: combine === 'count' ? 1 : v, t });
    else if (combine === 'last') m.set(i, { v, t });
    else m.set(i, { v: combine === 'sum' ? was.v + v : was.v + 1, t: Math.min(was.t, t) });
  }
  const users = [...pairs.keys()].sort((a, b) => a - b);
  const items = [...new Set([...pairs.values()].flatMap((m) => [...m.keys()]))].sort((a, b) => a - b);
  const out: [string, string, number, number][] = [];
  for (const u of users) for (const i of [...pairs.get(u)!.keys()].sort((a, b) => a - b)) out.push([String(u), String(i), pairs.get(u)!.get(i)!.v, pairs.get(u)!.get(i)!.t]);
  return { users: users.map(String), items: items.map(String), out };
}

describe('combineRows against a brute force', () => {
  it('sorted and unsorted rows, repeats, dropped users, times, each combine (seeded)', () => {
    const rng = makeRng('combine-rows');
    for (let rep = 0; rep < 40; rep++) {
      const count = 1 + Math.floor(rng() * 400);
      let rows: [number, number, number, number][] = Array.from({ length: count }, () => [Math.floor(rng() * 30), Math.floor(rng() * 25) * 7, Math.floor(rng() * 10) / 2, Math.floor(rng() * 1000)]);
      // half the cases in (user, item) order, as MovieLens files come (repeats kept in file order)
      if (rep % 2 === 0)
        rows = rows
          .map((r, k) => [r, k] as const)
          .sort((a, b) => a[0][0] - b[0][0] || a[0][1] - b[0][1] || a[1] - b[1])
          .map(([r]) => r);
      const combine = (['last', 'sum', 'count'] as const)[rep % 3]!;
      const dropSome = rep % 4 === 1;
      const raw = new RawRows(new IntInterner(), new IntInterner(), true);
      for (const [u, i, v, t] of rows) raw.add((raw.users as IntInterner).intern(u), (raw.items as IntInterner).intern(i), v, t);
      const keepUser = dropSome ? Uint8Array.from((raw.users as IntInterner).raw, (id) => (id % 3 === 0 ? 0 : 1)) : undefined;
      const inter = combineRows(raw, combine, keepUser);
      const ref = reference(rows, combine, (u) => !dropSome || u % 3 !== 0);
      expect(inter.userIds).toEqual(ref.users);
      expect(inter.itemIds).toEqual(ref.items);
      const got: [string, string, number, number][] = [];
      for (let u = 0; u < inter.userIds.length; u++)
        for (let p = inter.userPtr[u]!; p < inter.userPtr[u + 1]!; p++) got.push([inter.userIds[u]!, inter.itemIds[inter.itemIdx[p]!]!, inter.values[p]!, inter.times![p]!]);
      expect(got).toEqual(ref.out);
      expect(inter.rowsRead).toBe(0);
    }
  });
});
