/**
 * Synthetic MovieLens-shaped ratings (ratings.csv of ml-latest): see src/data/synth.ts for the model.
 */
import { join } from 'node:path';
import { stableStringify } from '../util/hash.js';
import { deriveSeed, makeRng } from '../random/rng.js';
import { normalSource } from '../random/samplers.js';
import type { Progress } from '../util/progress.js';
import { PRESETS, type SynthFile, type SynthOptions } from './presets.js';
import { activity, chooseDistinct, cumulative } from './synthDraws.js';
import { ByteWriter } from './synthWriters.js';

const RATING_TEXT = ['0.5', '1.0', '1.5', '2.0', '2.5', '3.0', '3.5', '4.0', '4.5', '5.0'];
const RATING_BYTES = RATING_TEXT.map((t) => Buffer.from(t, 'latin1'));
export function generateRatings(opts: SynthOptions, dir: string, progress?: Progress): SynthFile[] {
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
