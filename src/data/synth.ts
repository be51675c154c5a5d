import { closeSync, existsSync, openSync, readFileSync, renameSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { UserError, withPath } from '../util/errors.js';
import { writeFileAtomicSync } from '../util/atomic.js';
import { makeFolderSync } from '../util/folders.js';
import { sha256Hex, stableStringify } from '../util/hash.js';
import { deriveSeed, makeRng, type Rng } from '../random/rng.js';
import { normalSource } from '../random/samplers.js';
import type { Progress } from '../util/progress.js';
import { NYC_BBOX } from './spec.js';
import { PRESETS, type SynthKind } from './presets.js';
import { generateCheckinTable } from './checkinTable.js';

/**
 * Synthetic data in the real file formats, so the real readers ingest it.
 * Model (both kinds): users belong to one of G latent taste groups; an item's chance to be chosen
 * is a Zipf-like popularity times a group affinity; user activity is lognormal (heavy tail) with a
 * minimum, scaled to the exact total. Ratings add a group taste per item, so users of a group have
 * correlated centred ratings and their nearest neighbours are closer than random pairs.
 * Check-ins: groups are New York neighbourhoods (affinity falls with distance from the group's
 * centre), repeat visits follow a Pólya urn (revisit a past check-in's POI with prob. 0.5).
 */
export const SYNTH_VERSION = 1;

export { PRESETS, type SynthKind };

export interface SynthOptions {
  preset: string;
  users: number;
  items: number;
  /** ratings, or check-ins for the check-in presets */
  ratings: number;
  seed: number;
}

export interface SynthFile {
  name: string;
  path: string;
  bytes: number;
  lines: number;
}

export interface SynthResult {
  options: SynthOptions;
  kind: SynthKind;
  /** the reader that ingests the files */
  format: 'movielens-csv' | 'foursquare-www19' | 'foursquare-tsmc';
  files: SynthFile[];
}

export function resolveSynthOptions(o: { preset?: string; users?: number; items?: number; ratings?: number; seed?: number }): SynthOptions {
  const name = o.preset ?? 'small';
  const p = PRESETS[name];
  if (!p) throw new UserError(`unknown synthetic preset "${name}" (expected one of: ${Object.keys(PRESETS).join(', ')})`);
  const opts: SynthOptions = { preset: name, users: o.users ?? p.users, items: o.items ?? p.items, ratings: o.ratings ?? p.ratings, seed: o.seed ?? 1 };
  for (const k of ['users', 'items', 'ratings'] as const) {
    if (!Number.isInteger(opts[k]) || opts[k] < 1) throw new UserError(`synthetic ${k} must be a positive integer, got ${opts[k]}`);
  }
  if (!Number.isInteger(opts.seed)) throw new UserError(`synthetic seed must be an integer, got ${opts.seed}`);
  if (opts.ratings < opts.users * p.minPerUser) throw new UserError(`synthetic preset ${name}: ratings (${opts.ratings}) must be at least users × ${p.minPerUser} (${opts.users * p.minPerUser})`);
  if (p.kind === 'ratings' && opts.ratings > Math.floor(opts.items * 0.5) * opts.users) throw new UserError(`synthetic preset ${name}: ratings (${opts.ratings}) exceed users × items / 2`);
  if (opts.items < 10) throw new UserError(`synthetic items must be at least 10, got ${opts.items}`);
  return opts;
}

/** Folder name for the generated files: a hash of the resolved generator options. */
export function synthFolderName(opts: SynthOptions): string {
  return `${opts.preset}-${sha256Hex(stableStringify({ v: SYNTH_VERSION, ...opts })).slice(0, 16)}`;
}

/** writeSync that names the file it fails on (a full disk's ENOSPC names none). */
function writeNamed(fd: number, buf: Buffer, length: number, path: string): number {
  try {
    return writeSync(fd, buf, 0, length);
  } catch (e) {
    throw withPath(e, path);
  }
}

/** Buffered writer: big chunks, one writeSync per ~4 MB. Writes to a temp name, renamed on close. */
class ChunkWriter {
  private parts: string[] = [];
  private size = 0;
  private fd: number;
  bytes = 0;
  lines = 0;
  private tmp: string;
  constructor(private path: string) {
    this.tmp = `${path}.tmp-${process.pid}`;
    this.fd = openSync(this.tmp, 'w');
  }
  line(s: string): void {
    this.parts.push(s);
    this.size += s.length;
    this.lines++;
    if (this.size > 1 << 22) this.flush();
  }
  raw(b: Buffer): void {
    this.flush();
    this.bytes += writeNamed(this.fd, b, b.length, this.path);
  }
  private flush(): void {
    if (!this.parts.length) return;
    const buf = Buffer.from(this.parts.join(''), 'utf8');
    this.bytes += writeNamed(this.fd, buf, buf.length, this.path);
    this.parts = [];
    this.size = 0;
  }
  close(): void {
    this.flush();
    closeSync(this.fd);
    renameSync(this.tmp, this.path);
  }
}

/** Lognormal activity with a minimum, scaled to exactly `total`, each at most `cap`. */
function activity(rng: Rng, normal: () => number, users: number, total: number, min: number, cap: number, sigma: number): Int32Array {
  const w = new Float64Array(users);
  let sw = 0;
  for (let u = 0; u < users; u++) sw += w[u] = Math.exp(sigma * normal());
  const counts = new Int32Array(users);
  const extra = total - users * min;
  let sum = 0;
  for (let u = 0; u < users; u++) {
    counts[u] = Math.min(cap, min + Math.floor((extra * w[u]!) / sw));
    sum += counts[u]!;
  }
  // hand out the remainder (rounding and capping) one by one, from a random start, to users under the cap
  let deficit = total - sum;
  let u = Math.floor(rng() * users);
  let stuck = 0;
  while (deficit > 0) {
    if (counts[u]! < cap) {
      counts[u]!++;
      deficit--;
      stuck = 0;
    } else if (++stuck > users) throw new UserError(`synthetic: cannot place ${total} ratings with at most ${cap} per user`);
    u = (u + 1) % users;
  }
  return counts;
}

/** Cumulative weights (for inverse-CDF draws by binary search). */
function cumulative(w: Float64Array): Float64Array {
  const c = new Float64Array(w.length);
  let s = 0;
  for (let i = 0; i < w.length; i++) c[i] = s += w[i]!;
  return c;
}

function drawCdf(cdf: Float64Array, offset: number, len: number, x: number): number {
  // smallest i with cdf[offset + i] > x * total
  const target = x * cdf[offset + len - 1]!;
  let lo = 0;
  let hi = len - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (cdf[offset + mid]! > target) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** The k-th smallest (0-based) value of `a` (Hoare quickselect, reorders `a`; O(length) expected). */
export function kthSmallest(a: Float64Array, k: number): number {
  let lo = 0;
  let hi = a.length - 1;
  while (lo < hi) {
    const pivot = a[(lo + hi) >>> 1]!;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i]! < pivot) i++;
      while (a[j]! > pivot) j--;
      if (i <= j) {
        const t = a[i]!;
        a[i] = a[j]!;
        a[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return a[k]!;
  }
  return a[k]!;
}

/**
 * Choose `k` distinct items for one user from the group's weights: rejection while it is cheap,
 * then (heavy users) exact weighted sampling without replacement by exponential keys over the rest.
 */
function chooseDistinct(rng: Rng, cdf: Float64Array, weights: Float64Array, offset: number, items: number, k: number, stamp: Int32Array, mark: number, out: Int32Array): void {
  let got = 0;
  let tries = 0;
  const budget = 4 * k + 64;
  while (got < k && tries < budget) {
    tries++;
    const i = drawCdf(cdf, offset, items, rng());
    if (stamp[i] === mark) continue;
    stamp[i] = mark;
    out[got++] = i;
  }
  if (got < k) {
    // Exp(w) keys, smallest win: the k-got smallest keys among the items not yet taken.
    const keys = new Float64Array(items);
    for (let i = 0; i < items; i++) keys[i] = stamp[i] === mark ? Infinity : -Math.log(1 - rng()) / weights[offset + i]!;
    const need = k - got;
    const threshold = kthSmallest(Float64Array.from(keys), need - 1);
    for (let i = 0; i < items && got < k; i++) {
      if (keys[i]! <= threshold) {
        stamp[i] = mark;
        out[got++] = i;
      }
    }
  }
}

const RATING_TEXT = ['0.5', '1.0', '1.5', '2.0', '2.5', '3.0', '3.5', '4.0', '4.5', '5.0'];
const RATING_BYTES = RATING_TEXT.map((t) => Buffer.from(t, 'latin1'));

/**
 * ASCII writer straight into a 4 MB Buffer (numbers written digit by digit): no string per line,
 * so writing 25 million lines makes no garbage. Temp name, renamed on close.
 */
class ByteWriter {
  private buf = Buffer.allocUnsafe(1 << 22);
  private pos = 0;
  private fd: number;
  private tmp: string;
  bytes = 0;
  lines = 0;
  constructor(private path: string) {
    this.tmp = `${path}.tmp-${process.pid}`;
    this.fd = openSync(this.tmp, 'w');
  }
  private room(n: number): void {
    if (this.pos + n > this.buf.length) this.flush();
  }
  private flush(): void {
    this.bytes += writeNamed(this.fd, this.buf, this.pos, this.path);
    this.pos = 0;
  }
  text(s: string): void {
    this.room(s.length);
    this.pos += this.buf.write(s, this.pos, 'latin1');
  }
  bytesOf(b: Buffer): void {
    this.room(b.length);
    b.copy(this.buf, this.pos);
    this.pos += b.length;
  }
  /** a non-negative integer below 2^53 */
  uint(x: number): void {
    this.room(16);
    let digits = 1;
    for (let t = x; t >= 10; t = Math.floor(t / 10)) digits++;
    let p = this.pos + digits;
    this.pos = p;
    do {
      const q = Math.floor(x / 10);
      this.buf[--p] = 48 + (x - q * 10);
      x = q;
    } while (x > 0);
  }
  byte(c: number): void {
    this.room(1);
    this.buf[this.pos++] = c;
    if (c === 10) this.lines++;
  }
  close(): void {
    this.flush();
    closeSync(this.fd);
    renameSync(this.tmp, this.path);
  }
}

function generateRatings(opts: SynthOptions, dir: string, progress?: Progress): SynthFile[] {
  const rng = makeRng(deriveSeed(opts.seed, 'synth', stableStringify(opts)));
  const normal = normalSource(rng);
  const { users, items, ratings } = opts;
  const groups = Math.max(2, Math.min(20, Math.floor(users / 25)));
  // movieIds increasing with gaps, like MovieLens
  const movieId = new Int32Array(items);
  for (let i = 0, id = 0; i < items; i++) movieId[i] = id += 1 + (rng() < 0.7 ? 0 : Math.floor(rng() * 8));
  // popularity rank = a random permutation, so popularity is unrelated to id order
  const popRank = new Int32Array(items);
  for (let i = 0; i < items; i++) popRank[i] = i;
  for (let i = items - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    const t = popRank[i]!;
    popRank[i] = popRank[j]!;
    popRank[j] = t;
  }
  const itemBias = new Float64Array(items);
  for (let i = 0; i < items; i++) itemBias[i] = 0.5 * normal();
  const weights = new Float64Array(groups * items);
  const taste = new Float32Array(groups * items);
  for (let g = 0; g < groups; g++) {
    for (let i = 0; i < items; i++) {
      weights[g * items + i] = Math.exp(0.8 * normal()) / (popRank[i]! + 10) ** 1.1;
      taste[g * items + i] = 0.9 * normal();
    }
  }
  const cdf = new Float64Array(groups * items);
  for (let g = 0; g < groups; g++) cdf.set(cumulative(weights.subarray(g * items, (g + 1) * items)), g * items);
  const counts = activity(rng, normal, users, ratings, PRESETS[opts.preset]!.minPerUser, Math.floor(items * 0.5), 1.1);

  const file = join(dir, 'ratings.csv');
  const w = new ByteWriter(file);
  w.text('userId,movieId,rating,timestamp');
  w.byte(10);
  const stamp = new Int32Array(items);
  const chosen = new Int32Array(items);
  progress?.start('synth ratings', users);
  for (let u = 0; u < users; u++) {
    const g = Math.floor(rng() * groups);
    const k = counts[u]!;
    chooseDistinct(rng, cdf, weights, g * items, items, k, stamp, u + 1, chosen);
    const mine = chosen.subarray(0, k).sort();
    const userBias = 0.4 * normal();
    const t0 = 789652009 + Math.floor(rng() * 7.5e8);
    for (let j = 0; j < k; j++) {
      const i = mine[j]!;
      const r = 3.5 + userBias + itemBias[i]! + taste[g * items + i]! + 0.6 * normal();
      const step = Math.min(9, Math.max(0, Math.round(r * 2) - 1)); // 0.5..5.0 in 0.5 steps
      w.uint(u + 1);
      w.byte(44);
      w.uint(movieId[i]!);
      w.byte(44);
      w.bytesOf(RATING_BYTES[step]!);
      w.byte(44);
      w.uint(t0 + Math.floor(rng() * 3e7));
      w.byte(10);
    }
    progress?.increment();
  }
  progress?.stop();
  w.close();
  return [{ name: 'ratings.csv', path: file, bytes: w.bytes, lines: w.lines }];
}

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const two = (x: number): string => (x < 10 ? '0' : '') + x;
/** WWW19's time format, e.g. "Tue Apr 03 18:00:06 +0000 2012". */
function www19Time(sec: number): string {
  const d = new Date(sec * 1000);
  return `${DAYS[d.getUTCDay()]} ${MONTHS[d.getUTCMonth()]} ${two(d.getUTCDate())} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())} +0000 ${d.getUTCFullYear()}`;
}

const CATEGORIES = ['Coffee Shop', 'Bar', 'Pizza Place', 'Park', 'Subway', 'Gym / Fitness Center', 'Office', 'Deli / Bodega', 'Bookstore', 'Museum', 'Café'];

function generateCheckins(opts: SynthOptions, dir: string, progress?: Progress): SynthFile[] {
  const rng = makeRng(deriveSeed(opts.seed, 'synth', stableStringify(opts)));
  const normal = normalSource(rng);
  const { users, items } = opts;
  const [latMin, latMax, lonMin, lonMax] = NYC_BBOX;
  const groups = Math.max(2, Math.min(30, Math.floor(users / 20)));
  // 90% of POIs in the box, the rest elsewhere (outside the box, to be filtered out)
  const inBoxPois = Math.max(1, Math.round(items * 0.9));
  const lat = new Float64Array(items);
  const lon = new Float64Array(items);
  for (let i = 0; i < items; i++) {
    if (i < inBoxPois) {
      lat[i] = latMin + rng() * (latMax - latMin);
      lon[i] = lonMin + rng() * (lonMax - lonMin);
    } else {
      lat[i] = 35 + rng() * 5; // south of the box
      lon[i] = -90 + rng() * 10;
    }
  }
  const venueId: string[] = new Array(items);
  for (let i = 0; i < items; i++) {
    let prefix = '';
    for (let c = 0; c < 16; c++) prefix += Math.floor(rng() * 16).toString(16);
    venueId[i] = prefix + i.toString(16).padStart(8, '0'); // unique by construction
  }
  // POI file in a shuffled order, with one garbled (latin-1) "Café" byte sequence
  const poiFile = join(dir, 'raw_POIs.txt');
  const pw = new ChunkWriter(poiFile);
  const garbled = Math.floor(rng() * items);
  for (let i = 0; i < items; i++) {
    const cat = CATEGORIES[Math.floor(rng() * CATEGORIES.length)]!;
    const country = 'US';
    if (i === garbled) {
      pw.raw(Buffer.concat([Buffer.from(`${venueId[i]}\t${lat[i]!.toFixed(6)}\t${lon[i]!.toFixed(6)}\tCaf`), Buffer.from([0xe9]), Buffer.from(`\t${country}\n`)]));
      pw.lines++;
    } else pw.line(`${venueId[i]}\t${lat[i]!.toFixed(6)}\t${lon[i]!.toFixed(6)}\t${cat}\t${country}\n`);
  }
  pw.close();

  // groups = neighbourhoods: affinity falls with the distance from the group's centre
  const popularity = new Float64Array(inBoxPois);
  for (let i = 0; i < inBoxPois; i++) popularity[i] = Math.exp(1.0 * normal());
  const cdf = new Float64Array(groups * inBoxPois);
  for (let g = 0; g < groups; g++) {
    const cLat = latMin + (0.2 + 0.6 * rng()) * (latMax - latMin);
    const cLon = lonMin + (0.2 + 0.6 * rng()) * (lonMax - lonMin);
    const w = new Float64Array(inBoxPois);
    for (let i = 0; i < inBoxPois; i++) {
      const d2 = ((lat[i]! - cLat) / 0.02) ** 2 + ((lon[i]! - cLon) / 0.025) ** 2;
      w[i] = popularity[i]! * (Math.exp(-d2 / 2) + 0.002);
    }
    cdf.set(cumulative(w), g * inBoxPois);
  }
  // 5% extra users only ever check in outside the box (the reader must drop them)
  const tourists = items > inBoxPois ? Math.max(1, Math.round(users * 0.05)) : 0;
  const all = users + tourists;
  const counts = activity(rng, normal, all, opts.ratings + tourists, 1, Number.MAX_SAFE_INTEGER, 1.3);
  const userId = new Int32Array(all);
  for (let u = 0; u < all; u++) userId[u] = u + 1;
  for (let u = all - 1; u > 0; u--) {
    const j = Math.floor(rng() * (u + 1));
    const t = userId[u]!;
    userId[u] = userId[j]!;
    userId[j] = t;
  }
  const ciFile = join(dir, 'raw_Checkins_anonymized.txt');
  const cw = new ChunkWriter(ciFile);
  let most = 0;
  for (const c of counts) most = Math.max(most, c);
  const past = new Int32Array(most);
  progress?.start('synth check-ins', all);
  for (let u = 0; u < all; u++) {
    const tourist = u >= users;
    const g = Math.floor(rng() * groups);
    const k = counts[u]!;
    let t = 1333238400 + Math.floor(rng() * 3e7); // April 2012, like the real data
    for (let j = 0; j < k; j++) {
      let poi: number;
      if (tourist) poi = inBoxPois + Math.floor(rng() * (items - inBoxPois));
      else if (j > 0 && rng() < 0.5)
        poi = past[Math.floor(rng() * j)]!; // revisit (Pólya urn)
      else if (j > 0 && items > inBoxPois && rng() < 0.03) poi = inBoxPois + Math.floor(rng() * (items - inBoxPois));
      else poi = drawCdf(cdf, g * inBoxPois, inBoxPois, rng());
      past[j] = poi;
      t += 60 + Math.floor(rng() * 86400);
      cw.line(`${userId[u]}\t${venueId[poi]}\t${www19Time(t)}\t-240\n`);
    }
    progress?.increment();
  }
  progress?.stop();
  cw.close();
  return [
    { name: 'raw_Checkins_anonymized.txt', path: ciFile, bytes: cw.bytes, lines: cw.lines },
    { name: 'raw_POIs.txt', path: poiFile, bytes: pw.bytes, lines: pw.lines },
  ];
}

/** Generate the preset's files into `outDir` (created). Deterministic given the options. */
export function generateSynthetic(opts: SynthOptions, outDir: string, progress?: Progress): SynthResult {
  const kind = PRESETS[opts.preset]!.kind;
  makeFolderSync(outDir, 'synthetic data folder');
  if (kind === 'checkin-table') return { options: opts, kind, format: 'foursquare-tsmc', files: generateCheckinTable(opts, outDir, progress) };
  const files = kind === 'ratings' ? generateRatings(opts, outDir, progress) : generateCheckins(opts, outDir, progress);
  const result: SynthResult = { options: opts, kind, format: kind === 'ratings' ? 'movielens-csv' : 'foursquare-www19', files };
  return result;
}

/**
 * The generated files for `opts` under `synthDir/<preset>-<hash>/`, generating them when the
 * folder has no `synth.json` marker (written last, so an interrupted generation is redone).
 */
export function ensureSynthetic(opts: SynthOptions, synthDir: string, progress?: Progress): SynthResult {
  const dir = join(synthDir, synthFolderName(opts));
  const marker = join(dir, 'synth.json');
  if (existsSync(marker)) {
    try {
      const r = JSON.parse(readFileSync(marker, 'utf8')) as SynthResult;
      // paths relative to where the folder is now (the marker may have been written from elsewhere)
      for (const f of r.files) f.path = join(dir, f.name);
      if (r.files.every((f) => existsSync(f.path) && statSync(f.path).size === f.bytes)) return r;
    } catch {
      // regenerate below
    }
  }
  const r = generateSynthetic(opts, dir, progress);
  writeFileAtomicSync(marker, JSON.stringify(r, null, 2) + '\n');
  return r;
}
