// One benchmark stage in a fresh process (so peak RSS is the stage's own). Prints one JSON line.
// Called by scripts/bench.mjs: node scripts/bench-stage.mjs STAGE '{"json":"args"}'

import { loadDataset } from '../dist/data/load.js';
import { exactKnn } from '../dist/knn/exact.js';
import { drawHyperplanes, projectAll, packSigns, hammingKnn, codeCount, hammingDistance } from '../dist/lsh/index.js';
import { getMechanism } from '../dist/mechanisms/index.js';
import { laplshEpsilon } from '../dist/privacy/index.js';
import { makeRng } from '../dist/random/rng.js';
import { sampleWithoutReplacement } from '../dist/random/samplers.js';

const [stage, argJson] = process.argv.slice(2);
const args = JSON.parse(argJson ?? '{}');

const now = () => Number(process.hrtime.bigint()) / 1e9;
function timed(f) {
  const t0 = now();
  const value = f();
  return { value, seconds: now() - t0 };
}
async function timedAsync(f) {
  const t0 = now();
  const value = await f();
  return { value, seconds: now() - t0 };
}
const peakRssMB = () => process.resourceUsage().maxRSS / 1024;

async function load(dims) {
  return loadDataset(args.spec, dims, { cacheDir: args.cacheDir ?? null });
}

function queriesFor(users, q, seed = 'bench') {
  return sampleWithoutReplacement(makeRng(seed), users, Math.min(q, users));
}

/** Reference Hamming k-NN: full distance array, sort by (distance, random key). The "before" of the histogram lever. */
function hammingKnnBySort(codes, queries, k, rng) {
  const users = codeCount(codes);
  const out = new Int32Array(queries.length * k);
  const idx = new Int32Array(users - 1);
  const key = new Float64Array(users);
  for (let qi = 0; qi < queries.length; qi++) {
    const q = queries[qi];
    let m = 0;
    for (let u = 0; u < users; u++) {
      if (u === q) continue;
      key[u] = hammingDistance(codes, q, u) + rng() * 0.5; // random order within a distance
      idx[m++] = u;
    }
    idx.sort((a, b) => key[a] - key[b]);
    out.set(idx.subarray(0, k), qi * k);
  }
  return out;
}

/** Reference exact k-NN: dense dot products with every user. The "before" of the inverted-index lever. */
function exactKnnDense(vectors, queries, k) {
  const users = vectors.userIds.length;
  const dense = new Float64Array(vectors.n);
  const sims = new Float64Array(users);
  const idx = new Int32Array(users);
  for (const q of queries) {
    dense.fill(0);
    for (let p = vectors.rowPtr[q]; p < vectors.rowPtr[q + 1]; p++) dense[vectors.colIdx[p]] = vectors.values[p];
    for (let u = 0; u < users; u++) {
      let s = 0;
      for (let p = vectors.rowPtr[u]; p < vectors.rowPtr[u + 1]; p++) s += dense[vectors.colIdx[p]] * vectors.values[p];
      sims[u] = u === q ? -Infinity : s;
      idx[u] = u;
    }
    idx.sort((a, b) => sims[b] - sims[a] || a - b);
  }
  return k;
}

async function main() {
  const r = {};
  if (stage === 'ingest') {
    const { value, seconds } = await timedAsync(() => load(args.dims));
    const bytes = value.summary.inputs.reduce((s, f) => s + f.bytes, 0);
    r.seconds = seconds;
    r.mbPerSecond = bytes / 1e6 / seconds;
    r.users = value.summary.users;
    r.rows = value.summary.rowsRead;
  } else if (stage === 'knn') {
    const ds = await load([args.n]);
    const v = ds.vectors.get(args.n);
    const users = v.userIds.length;
    const queries = queriesFor(users, args.queries);
    const { seconds } = timed(() => exactKnn(v, queries, args.k));
    r.seconds = seconds;
    r.pairsPerSecond = (queries.length * (users - 1)) / seconds;
    if (args.dense) {
      const few = queries.subarray(0, args.dense);
      const dense = timed(() => exactKnnDense(v, few, args.k));
      const sparse = timed(() => exactKnn(v, few, args.k));
      r.denseSpeedup = dense.seconds / sparse.seconds;
    }
  } else if (stage === 'hamming') {
    const ds = await load([args.n]);
    const v = ds.vectors.get(args.n);
    const users = v.userIds.length;
    const queries = queriesFor(users, args.queries);
    for (const kappa of args.kappa) {
      const planes = drawHyperplanes(makeRng('planes'), kappa, args.n);
      const codes = packSigns(projectAll(v, planes, kappa), users, kappa);
      const auto = timed(() => hammingKnn(codes, queries, args.k, 12345));
      r[`kappa${kappa}_seconds`] = auto.seconds;
      r[`kappa${kappa}_pairsPerSecond`] = (queries.length * (users - 1)) / auto.seconds;
      if (kappa <= 16) {
        const scan = timed(() => hammingKnn(codes, queries, args.k, 12345, { path: 'scan' }));
        r[`kappa${kappa}_bucketSpeedup`] = scan.seconds / auto.seconds;
      }
      if (args.sortQueries) {
        const few = queries.subarray(0, args.sortQueries);
        const sorted = timed(() => hammingKnnBySort(codes, few, args.k, makeRng('ties')));
        const hist = timed(() => hammingKnn(codes, few, args.k, 12345, { path: 'scan' }));
        r[`kappa${kappa}_histogramSpeedup`] = sorted.seconds / hist.seconds;
      }
    }
  } else if (stage === 'laplsh') {
    const ds = await load([args.n]);
    const v = ds.vectors.get(args.n);
    const laplsh = getMechanism('laplsh');
    for (const kappa of args.kappa) {
      const planes = drawHyperplanes(makeRng('planes'), kappa, args.n);
      const projections = projectAll(v, planes, kappa);
      const hashing = { kappa, n: args.n, planes, projections };
      const eps = laplshEpsilon(5, { d: 0.1, delta: 0.01 });
      const enc = (sampler) => timed(() => laplsh.encode({ vectors: v, hashing, rng: makeRng('noise'), options: { sampler } }, eps));
      const projected = enc('projected');
      const direct = enc('direct');
      r[`kappa${kappa}_projectedSeconds`] = projected.seconds;
      r[`kappa${kappa}_directSeconds`] = direct.seconds;
      r[`kappa${kappa}_speedup`] = direct.seconds / projected.seconds;
    }
  } else {
    throw new Error(`unknown stage ${stage}`);
  }
  r.peakRssMB = peakRssMB();
  process.stdout.write(JSON.stringify(r) + '\n');
}

await main();
