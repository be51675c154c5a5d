import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { generateSynthetic, kthSmallest, resolveSynthOptions } from '../../src/data/synth.js';
import { loadDataset } from '../../src/data/load.js';
import { exactKnn } from '../../src/knn/angular.js';
import { makeRng } from '../../src/random/rng.js';
import type { UserVectors } from '../../src/data/types.js';
import { NYC_BBOX } from '../../src/data/spec.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'lshdp-synth-'));

describe('synthetic ratings (small preset, scaled down)', () => {
  const opts = resolveSynthOptions({ preset: 'small', users: 400, items: 800, ratings: 20000, seed: 7 });
  const dirA = tmp();
  const a = generateSynthetic(opts, dirA);
  const text = readFileSync(a.files[0]!.path, 'latin1');

  it('is deterministic given the seed, and the seed matters', () => {
    const b = generateSynthetic(opts, tmp());
    expect(readFileSync(b.files[0]!.path).equals(readFileSync(a.files[0]!.path))).toBe(true);
    const c = generateSynthetic({ ...opts, seed: 8 }, tmp());
    expect(readFileSync(c.files[0]!.path).equals(readFileSync(a.files[0]!.path))).toBe(false);
  });

  it('has the ml-25m file shape: header, exact counts, 0.5 steps, sorted by user then movie, ≥ 20 per user', () => {
    const lines = text.split('\n');
    expect(lines[0]).toBe('userId,movieId,rating,timestamp');
    expect(lines.at(-1)).toBe('');
    const rows = lines.slice(1, -1).map((l) => l.split(','));
    expect(rows.length).toBe(opts.ratings);
    const perUser = new Map<number, number>();
    const items = new Set<number>();
    let prevU = 0;
    let prevM = -1;
    let bad = 0;
    for (const [u, m, r, t] of rows) {
      const uu = Number(u);
      const mm = Number(m);
      const rr = Number(r);
      if (!(uu > prevU || (uu === prevU && mm > prevM))) bad++; // strictly sorted → no repeated pair
      if (!(rr >= 0.5 && rr <= 5 && Number.isInteger(rr * 2) && /^\d\.\d$/.test(r!))) bad++;
      if (!/^\d+$/.test(t!)) bad++;
      prevU = uu;
      prevM = mm;
      perUser.set(uu, (perUser.get(uu) ?? 0) + 1);
      items.add(mm);
    }
    expect(bad).toBe(0);
    expect(perUser.size).toBe(opts.users);
    expect(Math.min(...perUser.values())).toBeGreaterThanOrEqual(20);
    expect(items.size).toBeLessThanOrEqual(opts.items);
    // heavy tails: the most active user far above the median; the top 1% of items hold > 8% of ratings
    const acts = [...perUser.values()].sort((x, y) => x - y);
    expect(acts.at(-1)! / acts[acts.length >> 1]!).toBeGreaterThan(4);
    const pop = new Map<number, number>();
    for (const [, m] of rows) pop.set(Number(m), (pop.get(Number(m)) ?? 0) + 1);
    const top = [...pop.values()].sort((x, y) => y - x).slice(0, Math.ceil(opts.items / 100));
    expect(top.reduce((s, x) => s + x, 0) / opts.ratings).toBeGreaterThan(0.08);
  });

  it("latent taste groups: true 1-NN distances are shorter than with each user's values shuffled (paired, > 5 SE)", async () => {
    const { vectors } = await loadDataset({ name: 's', format: 'movielens-csv', path: a.files[0]!.path }, [100], { cacheDir: null });
    const v = vectors.get(100)!;
    // null model: same supports (so the same popularity), values permuted within each user's row
    const rng = makeRng('shuffle');
    const shuffled: UserVectors = { ...v, values: Float64Array.from(v.values) };
    for (let r = 0; r + 1 < v.rowPtr.length; r++) {
      for (let p = v.rowPtr[r + 1]! - 1; p > v.rowPtr[r]!; p--) {
        const q = v.rowPtr[r]! + Math.floor(rng() * (p - v.rowPtr[r]! + 1));
        const t = shuffled.values[p]!;
        shuffled.values[p] = shuffled.values[q]!;
        shuffled.values[q] = t;
      }
    }
    const users = v.userIds.length;
    const all = Int32Array.from({ length: users }, (_, i) => i);
    const real = exactKnn(v, all, 1).distances;
    const nul = exactKnn(shuffled, all, 1).distances;
    let s = 0;
    let ss = 0;
    for (let i = 0; i < users; i++) {
      const d = nul[i]! - real[i]!;
      s += d;
      ss += d * d;
    }
    const mean = s / users;
    const se = Math.sqrt((ss / users - mean * mean) / (users - 1));
    console.log(`1-NN distance: shuffled minus real ${mean.toFixed(4)} (SE ${se.toFixed(4)})`);
    expect(mean).toBeGreaterThan(5 * se);
  });
});

describe('synthetic check-ins (foursquare-small)', () => {
  const opts = resolveSynthOptions({ preset: 'foursquare-small', users: 200, items: 1000, ratings: 6000, seed: 3 });
  const dir = tmp();
  const r = generateSynthetic(opts, dir);
  it('writes WWW19 files with POIs outside the box and one invalid UTF-8 byte; the reader keeps exactly the NYC users', async () => {
    expect(r.format).toBe('foursquare-www19');
    const poi = readFileSync(join(dir, 'raw_POIs.txt'));
    expect(poi.includes(Buffer.from([0x43, 0x61, 0x66, 0xe9, 0x09]))).toBe(true); // "Caf\xE9\t"
    const lines = poi
      .toString('latin1')
      .trim()
      .split('\n')
      .map((l) => l.split('\t'));
    expect(lines.length).toBe(opts.items);
    const [a, b, c, d] = NYC_BBOX;
    const inBox = lines.filter(([, lat, lon]) => +lat! >= a && +lat! <= b && +lon! >= c && +lon! <= d).length;
    expect(inBox).toBe(Math.round(opts.items * 0.9));
    const { summary } = await loadDataset({ name: 'f', format: 'synthetic', preset: 'foursquare-small', users: 200, items: 1000, ratings: 6000, seed: 3 }, [50], { cacheDir: null, synthDir: tmp() });
    expect(summary.users).toBe(opts.users); // tourists (outside-only users) are dropped
    expect(summary.center).toBe('none');
  });
});

describe('kthSmallest (quickselect)', () => {
  it('matches sorting on random arrays with duplicates', () => {
    const rng = makeRng('qs');
    for (let rep = 0; rep < 200; rep++) {
      const n = 1 + Math.floor(rng() * 300);
      const a = Float64Array.from({ length: n }, () => Math.floor(rng() * 50));
      const k = Math.floor(rng() * n);
      const sorted = Float64Array.from(a).sort();
      expect(kthSmallest(a, k)).toBe(sorted[k]);
    }
  });
});
