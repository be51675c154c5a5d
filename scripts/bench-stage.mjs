// One benchmark stage in a fresh process (so peak RSS is the stage's own). Prints one JSON line.
// Called by scripts/bench.mjs: node scripts/bench-stage.mjs STAGE '{"json":"args"}'

import { loadDataset } from '../dist/data/load.js';
import { exactKnn } from '../dist/knn/angular.js';
import { drawHyperplanes, projectAll, packSigns, hammingKnn, codeCount, hammingDistance, hammingKernelName, wasmBareScan, tieSeed } from '../dist/lsh/index.js';
import { evaluateAnswerSets, evaluateAnswers } from '../dist/experiment/utility.js';
import { getMechanism } from '../dist/mechanisms/index.js';
import { laplshEpsilon } from '../dist/privacy/index.js';
import { makeRng } from '../dist/random/rng.js';
import { sampleWithoutReplacement } from '../dist/random/samplers.js';
import { packSymbols, releaseKnn } from '../dist/lsh/releases.js';

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
    // The kernel as the trial runs it (default path and kernel), the WebAssembly scan, the JS scan,
    // and the bare distance loop without selection over the same codes and queries (SIMD for
    // kappa <= 32, unrolled i64.popcnt above), all in this process. Each is warmed up first: V8
    // compiles wasm with a baseline tier and swaps in optimized code for later calls.
    const ds = await load([args.n]);
    const v = ds.vectors.get(args.n);
    const users = v.userIds.length;
    const queries = queriesFor(users, args.queries);
    const few = queries.subarray(0, args.jsQueries ?? 100);
    const pairs = (q) => q.length * (users - 1);
    r.kernel = hammingKernelName();
    for (const kappa of args.kappa) {
      const planes = drawHyperplanes(makeRng('planes'), kappa, args.n);
      const codes = packSigns(projectAll(v, planes, kappa), users, kappa);
      const warm = queries.subarray(0, 20);
      for (let i = 0; i < 3; i++) {
        hammingKnn(codes, warm, args.k, 12345);
        hammingKnn(codes, warm, args.k, 12345, { path: 'scan' });
        wasmBareScan(codes, warm);
      }
      // kernel and bare loop alternate, best of 3 each: the ratio of the two survives a busy machine
      const best = { auto: Infinity, scan: Infinity, bare: Infinity };
      let bareValue = null;
      for (let i = 0; i < 3; i++) {
        best.auto = Math.min(best.auto, timed(() => hammingKnn(codes, queries, args.k, 12345)).seconds);
        best.scan = Math.min(best.scan, timed(() => hammingKnn(codes, queries, args.k, 12345, { path: 'scan' })).seconds);
        const bare = timed(() => wasmBareScan(codes, queries));
        bareValue = bare.value;
        best.bare = Math.min(best.bare, bare.seconds);
      }
      r[`kappa${kappa}_seconds`] = best.auto;
      r[`kappa${kappa}_pairsPerSecond`] = pairs(queries) / best.auto;
      r[`kappa${kappa}_scanPairsPerSecond`] = pairs(queries) / best.scan;
      if (bareValue !== null) r[`kappa${kappa}_barePairsPerSecond`] = pairs(queries) / best.bare;
      const js = timed(() => hammingKnn(codes, few, args.k, 12345, { path: 'scan', kernel: 'js' }));
      r[`kappa${kappa}_jsPairsPerSecond`] = pairs(few) / js.seconds;
      if (args.sortQueries) {
        const some = queries.subarray(0, args.sortQueries);
        const sorted = timed(() => hammingKnnBySort(codes, some, args.k, makeRng('ties')));
        const hist = timed(() => hammingKnn(codes, some, args.k, 12345, { path: 'scan', kernel: 'js' }));
        r[`kappa${kappa}_histogramSpeedup`] = sorted.seconds / hist.seconds;
      }
    }
  } else if (stage === 'cell') {
    // One trial cell as runTrialCell computes it (src/experiment/trial.ts), timed per stage:
    // projection (planes, projections, clean codes), the mechanisms' noise (LapLSH, RR flips), the
    // Hamming k-NN (its bare distance loop timed apart, the rest is selection), utility. Exact k-NN
    // is per (data set, n), shared by every cell, and reported apart.
    const ds = await load([args.n]);
    const v = ds.vectors.get(args.n);
    const users = v.userIds.length;
    const queries = args.queries > 0 ? queriesFor(users, args.queries) : Int32Array.from({ length: users }, (_, i) => i);
    const ks = [1, 5, 10];
    const kMax = 10;
    const truth = timed(() => exactKnn(v, queries, kMax));
    r.exactSeconds = truth.seconds;
    const t = { projection: 0, laplsh: 0, flips: 0, scan: 0, selection: 0, utility: 0, other: 0 };
    const privacy = { d: 0.1, delta: 0.01 };
    const total = timed(() => {
      for (const kappa of args.kappa) {
        const proj = timed(() => {
          const planes = drawHyperplanes(makeRng(`planes${kappa}`), kappa, args.n);
          const projections = projectAll(v, planes, kappa);
          return { kappa, n: args.n, planes, projections, codes: packSigns(projections, users, kappa) };
        });
        t.projection += proj.seconds;
        const hashing = proj.value;
        const sets = [];
        for (const name of ['lsh', 'lshrr', 'laplsh']) {
          const mech = getMechanism(name);
          // the draws a mechanism shares across the ξ of the trial, as runTrialCell keeps them
          const shared = new Map();
          const perTrial = (key, make) => {
            if (!shared.has(key)) shared.set(key, make(makeRng(`shared${name}${key}`)));
            return shared.get(key);
          };
          for (const xi of mech.usesXi ? args.xi : [null]) {
            const info = mech.epsilon(xi ?? 0, kappa, privacy, {});
            const enc = timed(() => mech.encode({ vectors: v, hashing, rng: makeRng(`noise${name}${xi}`), options: {}, perTrial }, info));
            t[name === 'laplsh' ? 'laplsh' : name === 'lshrr' ? 'flips' : 'other'] += enc.seconds;
            const knn = timed(() => hammingKnn(enc.value, queries, kMax, tieSeed(1, 'bench', args.n, kappa, 0)));
            const bare = timed(() => wasmBareScan(enc.value, queries));
            const scanPart = bare.value === null || hammingKernelName() === 'js' || kappa <= 16 ? knn.seconds : Math.min(bare.seconds, knn.seconds);
            t.scan += scanPart;
            t.selection += knn.seconds - scanPart;
            sets.push({ answers: knn.value, width: kMax, ks });
          }
        }
        // one evaluation of the cell's answers, as runTrialCell does
        t.utility += timed(() => evaluateAnswerSets(v, queries, truth.value, sets)).seconds;
      }
    });
    const cell = Object.values(t).reduce((a, b) => a + b, 0);
    r.seconds = total.seconds - 0; // includes the bare-loop timing, excluded from the shares
    for (const [key, sec] of Object.entries(t)) {
      r[`${key}Seconds`] = sec;
      r[`${key}Share`] = sec / cell;
    }
    r.cellSeconds = cell;
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
  } else if (stage === 'directional') {
    // the noise of a trial cell: LapLSH's against VMF's and Purkayastha's (all projected), at ξ = 5
    // and the whole result of each in a trial cell: the noise, then the Hamming k-NN of the
    // queries (1000, as the 25M-shaped grid) and the utility
    const ds = await load([args.n]);
    const v = ds.vectors.get(args.n);
    const users = v.userIds.length;
    const queries = queriesFor(users, args.queries ?? 1000);
    const truth = exactKnn(v, queries, 10);
    const privacy = { d: 0.1, delta: 0.01 };
    for (const kappa of args.kappa) {
      const planes = drawHyperplanes(makeRng('planes'), kappa, args.n);
      const projections = projectAll(v, planes, kappa);
      const hashing = { kappa, n: args.n, planes, projections };
      for (const name of ['laplsh', 'vmf', 'purkayastha']) {
        const m = getMechanism(name);
        const eps = m.epsilon(5, kappa, privacy);
        // the first call factors the planes (shared by the three, as in a cell), and the k-NN and
        // the utility get compiled: warm both, so no mechanism pays for the others' first calls
        const warm = m.encode({ vectors: v, hashing, rng: makeRng('warm'), options: {} }, eps);
        evaluateAnswers(v, queries, truth, hammingKnn(warm, queries, 10, tieSeed(1, 'bench', args.n, kappa, 0)), 10, [1, 5, 10]);
        const enc = timed(() => m.encode({ vectors: v, hashing, rng: makeRng('noise'), options: {} }, eps));
        const rest = timed(() => evaluateAnswers(v, queries, truth, hammingKnn(enc.value, queries, 10, tieSeed(1, 'bench', args.n, kappa, 0)), 10, [1, 5, 10]));
        r[`kappa${kappa}_${name}Seconds`] = enc.seconds;
        r[`kappa${kappa}_${name}ResultSeconds`] = enc.seconds + rest.seconds;
      }
    }
  } else if (stage === 'releases') {
    // The k-NN of one trial cell (every user a query, k = 10) over the three kinds of release, at
    // each kappa: bits (LSH's signs of the projections), reals (jl-gaussian's release at xi = 5)
    // and symbols (each projection's quantile bucket among b = 4 and 16: symbols with the
    // projections' structure), timed in turns (bits, reals, symbols, bits, ...) so that the ratios
    // survive a busy machine; medians of `reps`, after 3 warm-up calls each (V8 swaps optimized
    // code in for the WebAssembly kernels' later calls).
    const ds = await load([args.n]);
    const v = ds.vectors.get(args.n);
    const users = v.userIds.length;
    const queries = Int32Array.from({ length: users }, (_, i) => i);
    const jl = getMechanism('jl-gaussian');
    const privacy = { d: 0.1, delta: 0.01 };
    r.users = users;
    r.kernel = hammingKernelName();
    r.load = (await import('node:os')).loadavg()[0];
    for (const kappa of args.kappa) {
      const planes = drawHyperplanes(makeRng(`planes${kappa}`), kappa, args.n);
      const projections = projectAll(v, planes, kappa);
      const codes = packSigns(projections, users, kappa);
      const hashing = { kappa, n: args.n, planes, projections, codes };
      const reals = jl.encode({ vectors: v, hashing, rng: makeRng(`noise${kappa}`), options: {} }, jl.epsilon(5, kappa, privacy, {}));
      const symbolsOf = (b) => {
        const s = new Uint8Array(users * kappa);
        const col = new Float64Array(users);
        for (let j = 0; j < kappa; j++) {
          for (let u = 0; u < users; u++) col[u] = projections[u * kappa + j];
          const sorted = Float64Array.from(col).sort();
          const cuts = Array.from({ length: b - 1 }, (_, m) => sorted[Math.floor(((m + 1) * users) / b)]);
          for (let u = 0; u < users; u++) s[u * kappa + j] = cuts.filter((c) => c <= col[u]).length;
        }
        return packSymbols(s, users, kappa, b);
      };
      const ties = tieSeed(1, 'bench', args.n, kappa, 0);
      const kinds = {
        bits: () => hammingKnn(codes, queries, 10, ties),
        reals: () => releaseKnn(reals, queries, 10, ties),
        symbols4: (
          (set) => () =>
            releaseKnn(set, queries, 10, ties)
        )(symbolsOf(4)),
        symbols16: (
          (set) => () =>
            releaseKnn(set, queries, 10, ties)
        )(symbolsOf(16)),
      };
      const times = Object.fromEntries(Object.keys(kinds).map((name) => [name, []]));
      for (const f of Object.values(kinds)) for (let i = 0; i < 3; i++) f();
      for (let i = 0; i < args.reps; i++) for (const [name, f] of Object.entries(kinds)) times[name].push(timed(f).seconds);
      for (const [name, xs] of Object.entries(times)) {
        const sorted = [...xs].sort((a, b) => a - b);
        r[`kappa${kappa}_${name}Seconds`] = sorted[sorted.length >> 1];
        r[`kappa${kappa}_${name}Min`] = sorted[0];
      }
    }
  } else {
    throw new Error(`unknown stage ${stage}`);
  }
  r.peakRssMB = peakRssMB();
  process.stdout.write(JSON.stringify(r) + '\n');
}

await main();
