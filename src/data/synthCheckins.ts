/**
 * Synthetic check-ins in the Foursquare WWW19 format (raw_Checkins_anonymized.txt, raw_POIs.txt):
 * see src/data/synth.ts for the model.
 */
import { join } from 'node:path';
import { stableStringify } from '../util/hash.js';
import { deriveSeed, makeRng } from '../random/rng.js';
import { normalSource } from '../random/samplers.js';
import type { Progress } from '../util/progress.js';
import { NYC_BBOX } from './spec.js';
import type { SynthFile, SynthOptions } from './presets.js';
import { activity, cumulative, drawCdf } from './synthDraws.js';
import { ChunkWriter } from './synthWriters.js';

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const two = (x: number): string => (x < 10 ? '0' : '') + x;
/** WWW19's time format, e.g. "Tue Apr 03 18:00:06 +0000 2012". */
function www19Time(sec: number): string {
  const d = new Date(sec * 1000);
  return `${DAYS[d.getUTCDay()]} ${MONTHS[d.getUTCMonth()]} ${two(d.getUTCDate())} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())} +0000 ${d.getUTCFullYear()}`;
}

const CATEGORIES = ['Coffee Shop', 'Bar', 'Pizza Place', 'Park', 'Subway', 'Gym / Fitness Center', 'Office', 'Deli / Bodega', 'Bookstore', 'Museum', 'Café'];

export function generateCheckins(opts: SynthOptions, dir: string, progress?: Progress): SynthFile[] {
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
