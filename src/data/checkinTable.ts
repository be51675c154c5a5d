/**
 * The `checkins-nyc` preset: a check-in table with the statistics of a real New York Foursquare
 * table (docs/DATA.md), written as the original TSMC 2014 file (8 tab-separated fields) so the
 * `foursquare-tsmc` reader reads it and counts visits.
 *
 * What the real table has and the other check-in preset does not: few distinct venues a user
 * (12.9 on average, heavy-tailed), visit counts heavy-tailed too (most pairs one visit, a few
 * users' home or office hundreds), and popular venues that many users share. After the top-n cut
 * most users keep one to four venues, often dominated by one count, so many have an exact or
 * near duplicate: at n = 100 44.5% of the users have a true nearest neighbour within angular
 * distance 0.1, and ten hyperplanes' codes collide massively. Model: venue popularity is Zipf-like;
 * each user's number of distinct venues is lognormal with a minimum of one, scaled to the exact
 * number of (user, venue) pairs; a user's venues are drawn by popularity without replacement; the
 * first is their "home", visited Pareto(homeTail) times, the others Pareto(visitTail) times.
 */
import { join } from 'node:path';
import { deriveSeed, makeRng, type Rng } from '../random/rng.js';
import { normalSource } from '../random/samplers.js';
import { writeFileAtomicSync } from '../util/atomic.js';
import { stableStringify } from '../util/hash.js';
import type { Progress } from '../util/progress.js';
import { NYC_BBOX } from './spec.js';
import { UserError } from '../util/errors.js';

/** What the generator reads of the resolved synthetic options (src/data/synth.ts), and what it writes. */
interface TableOptions {
  users: number;
  items: number;
  /** (user, venue) pairs */
  ratings: number;
  seed: number;
}
interface TableFile {
  name: string;
  path: string;
  bytes: number;
  lines: number;
}

/** The generator's shape (fitted by hand to the real table's statistics: docs/DATA.md). */
export interface CheckinShape {
  /** popularity of the venue of rank r: 1 / (r + offset)^zipf */
  zipf: number;
  offset: number;
  /** lognormal σ of the number of distinct venues a user */
  sigma: number;
  /** Pareto tail index of a home venue's visits (smaller: heavier) */
  homeTail: number;
  /** Pareto tail index of the other venues' visits */
  visitTail: number;
}

export const CHECKIN_SHAPE: CheckinShape = { zipf: 0.75, offset: 10, sigma: 0.9, homeTail: 0.8, visitTail: 1.6 };

/** Distinct venues a user: lognormal weights, at least one each, scaled to exactly `total`, at most `cap`. */
function venuesPerUser(normal: () => number, rng: Rng, users: number, total: number, cap: number, sigma: number): Int32Array {
  const w = new Float64Array(users);
  let sw = 0;
  for (let u = 0; u < users; u++) sw += w[u] = Math.exp(sigma * normal());
  const m = new Int32Array(users);
  const extra = total - users;
  let sum = 0;
  for (let u = 0; u < users; u++) sum += m[u] = Math.min(cap, 1 + Math.floor((extra * w[u]!) / sw));
  // the rounding's remainder one by one from a random user on, skipping those at the cap
  for (let u = Math.floor(rng() * users), left = total - sum; left > 0; u = (u + 1) % users) {
    if (m[u]! < cap) {
      m[u]!++;
      left--;
    }
  }
  return m;
}

/** Pareto visits: ⌊U^(−1/tail)⌋ ≥ 1, capped so one pair cannot swamp the file. */
const visits = (rng: Rng, tail: number): number => Math.min(500, Math.floor((1 - rng()) ** (-1 / tail)));

/** The `checkins-nyc` files: `checkins.tsv` (TSMC 2014 layout). Deterministic given the options. */
export function generateCheckinTable(opts: TableOptions, dir: string, progress?: Progress, shape: CheckinShape = CHECKIN_SHAPE): TableFile[] {
  const rng = makeRng(deriveSeed(opts.seed, 'synth', stableStringify(opts)));
  const normal = normalSource(rng);
  const { users, items } = opts;
  const cap = Math.max(1, Math.floor(items / 2));
  if (opts.ratings > users * cap) throw new UserError(`synthetic preset checkins-nyc: ${opts.ratings} (user, venue) pairs exceed users × items / 2`);
  // venue ranks: cumulative popularity, drawn by binary search
  const cdf = new Float64Array(items);
  for (let r = 0, s = 0; r < items; r++) cdf[r] = s += 1 / (r + 1 + shape.offset) ** shape.zipf;
  const draw = (): number => {
    const target = rng() * cdf[items - 1]!;
    let lo = 0;
    let hi = items - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cdf[mid]! > target) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  };
  // a venue's id, place and category: rank order is not id order
  const venue: string[] = new Array(items);
  const [latMin, latMax, lonMin, lonMax] = NYC_BBOX;
  for (let i = 0; i < items; i++) {
    let hex = '';
    for (let c = 0; c < 16; c++) hex += Math.floor(rng() * 16).toString(16);
    const cat = Math.floor(rng() * CATEGORIES.length);
    const lat = latMin + rng() * (latMax - latMin);
    const lon = lonMin + rng() * (lonMax - lonMin);
    venue[i] = `${hex}${i.toString(16).padStart(8, '0')}\t4bf58dd8d48988d1${cat.toString(16).padStart(2, '0')}951735\t${CATEGORIES[cat]}\t${lat.toFixed(6)}\t${lon.toFixed(6)}\t-240\t`;
  }
  const m = venuesPerUser(normal, rng, users, opts.ratings, cap, shape.sigma);
  const stamp = new Int32Array(items);
  const lines: string[] = [];
  progress?.start('synth check-ins', users);
  for (let u = 0; u < users; u++) {
    let t = 1334188800 + Math.floor(rng() * 2.6e7); // from 12 April 2012, like the real data
    for (let j = 0; j < m[u]!; j++) {
      let v = draw();
      // without replacement: redraw a venue the user has (the cap keeps half the venues free)
      while (stamp[v] === u + 1) v = draw();
      stamp[v] = u + 1;
      const n = visits(rng, j === 0 ? shape.homeTail : shape.visitTail);
      for (let c = 0; c < n; c++) {
        t += 60 + Math.floor(rng() * 43200);
        lines.push(`${u + 1}\t${venue[v]}${tsmcTime(t)}\n`);
      }
    }
    progress?.increment();
  }
  progress?.stop();
  const path = join(dir, 'checkins.tsv');
  const text = lines.join('');
  writeFileAtomicSync(path, text);
  return [{ name: 'checkins.tsv', path, bytes: Buffer.byteLength(text), lines: lines.length }];
}

const CATEGORIES = ['Home (private)', 'Office', 'Bar', 'Coffee Shop', 'Subway', 'Gym / Fitness Center', 'Food & Drink Shop', 'Park', 'Train Station', 'Deli / Bodega'];
const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const two = (x: number): string => (x < 10 ? '0' : '') + x;
/** TSMC's UTC time, e.g. "Tue Apr 03 18:00:06 +0000 2012". */
function tsmcTime(sec: number): string {
  const d = new Date(sec * 1000);
  return `${DAYS[d.getUTCDay()]} ${MONTHS[d.getUTCMonth()]} ${two(d.getUTCDate())} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())} +0000 ${d.getUTCFullYear()}`;
}
