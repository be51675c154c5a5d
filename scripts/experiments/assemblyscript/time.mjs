#!/usr/bin/env node
// Times attribute inference's ranks, the hand-written WAT (src/kernels/infer.wat) against the
// AssemblyScript module beside this file (infer.wasm, from infer.ts), on the shared MovieLens data
// as the evaluation calls them: n 1000, one trial's groups (aux 0.5: 305 auxiliary users and 305
// targets, every target ranked in one call), k 10 (inferRank4) and 20 (inferRank). Neighbours of
// two kinds: each target's nearest auxiliary users by Jaccard (a release close to the clean codes)
// and random ones (a noisy release). `npm run build` first (it reads dist/).
//
//   node scripts/experiments/assemblyscript/time.mjs [--reps 11] [--calls 200] [--data ratings.csv] [--wasm infer.wasm]
//
// Every case first checks that both modules write the same doubles, bit for bit, as the JS twin
// (src/evaluations/infer/ranking.ts targetMetrics) too; then `reps` samples of each, alternated
// (WAT then AS, then AS then WAT, ...), each `calls` calls of the kernel alone (the data laid out
// once), timed in CPU (process.cpuUsage, user + system) and wall. Prints medians and spreads.
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { HERE } from './build.mjs';
import { assemblyScriptInstance, prepare, sameBits } from './ranks.mjs';
import { loadDataset } from '../../../dist/index.js';
import { inferGroups, inferPermutation, popularity, priorOrder } from '../../../dist/evaluations/infer/inference.js';
import { auxView, kernelData, PREC_AT, rankScratch, targetMetrics } from '../../../dist/evaluations/infer/ranking.js';
import { newInstance } from '../../../dist/kernels/instance.js';
import { makeRng } from '../../../dist/random/rng.js';

const ROOT = join(HERE, '..', '..', '..');

const argv = process.argv.slice(2);
const option = (name, dflt) => (argv.includes(`--${name}`) ? argv[argv.indexOf(`--${name}`) + 1] : dflt);
const reps = Number(option('reps', 11));
const calls = Number(option('calls', 200));
const shared = parse(readFileSync(join(ROOT, 'configs', 'shared-movielens-small.yaml'), 'utf8')).datasets[0];
const path = option('data', join(ROOT, 'configs', shared.path));
const wasmFile = option('wasm', join(HERE, 'infer.wasm'));

// the item sets at n 1000 (uncentred: the vectors' support is the item set), one trial's groups
const loaded = await loadDataset({ name: 'movielens-small', format: 'movielens-csv', path, center: 'none' }, [1000], { cacheDir: null });
const vectors = loaded.vectors.get(1000);
const sets = { rowPtr: vectors.rowPtr, colIdx: vectors.colIdx, n: vectors.n };
const users = vectors.rowPtr.length - 1;
const at = { runSeed: 1, dataset: 'movielens-small', n: 1000, trial: 0 };
const { aux, targets } = inferGroups(inferPermutation(users, 1, 'movielens-small', 1000, 0), 0.5, 5000, at);
const view = auxView(sets, priorOrder(popularity(sets, aux)), targets);
const data = kernelData(sets, view, aux, targets);

/** Each target's `take` auxiliary users (aux indices): by Jaccard of the item sets, ties by index, or at random. */
function neighbours(kind, take) {
  const rng = makeRng(`as-experiment-${kind}-${take}`);
  const mark = new Uint8Array(sets.n);
  const nearest = new Int32Array(targets.length * take);
  targets.forEach((t, i) => {
    const row = (u) => sets.colIdx.subarray(sets.rowPtr[u], sets.rowPtr[u + 1]);
    for (const c of row(t)) mark[c] = 1;
    const order = Array.from(aux.keys());
    if (kind === 'random') order.sort(() => rng() - 0.5);
    else {
      const sim = order.map((a) => {
        const r = row(aux[a]);
        let both = 0;
        for (const c of r) both += mark[c];
        return both / (r.length + row(t).length - both || 1);
      });
      order.sort((a, b) => sim[b] - sim[a] || a - b);
    }
    for (const c of row(t)) mark[c] = 0;
    nearest.set(order.slice(0, take), i * take);
  });
  return nearest;
}

/** targetMetrics of every target, laid out as the kernels write them. */
function jsRanks(nearest, take) {
  const out = new Float64Array(2 * targets.length);
  const s = rankScratch(sets.n, take);
  const voters = new Int32Array(take);
  targets.forEach((t, i) => {
    for (let q = 0; q < take; q++) voters[q] = aux[nearest[i * take + q]];
    const m = targetMetrics(s, sets, view, t, i, voters, take);
    out[2 * i] = m ? m.auc : Number.NaN;
    out[2 * i + 1] = m ? m.prec10 : Number.NaN;
  });
  return out;
}

/** CPU and wall microseconds a call over `calls` calls. */
function sample(run) {
  const cpu = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  for (let c = 0; c < calls; c++) run();
  const wall = Number(process.hrtime.bigint() - t0) / 1e3;
  const used = process.cpuUsage(cpu);
  return { cpu: (used.user + used.system) / calls, wall: wall / calls };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const fmt = (xs) => `${median(xs).toFixed(1)} (${Math.min(...xs).toFixed(1)}–${Math.max(...xs).toFixed(1)})`;

const load0 = loadavg()[0];
process.stdout.write(
  `MovieLens latest-small, n ${sets.n}, ${aux.length} auxiliary users, ${targets.length} targets a call; ${reps} alternated samples of ${calls} calls; ${process.version}; load ${load0.toFixed(1)}\n`,
);
process.stdout.write('| neighbours | k | WAT CPU µs/call | AS CPU µs/call | AS/WAT CPU | WAT wall µs | AS wall µs | same doubles |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n');
for (const kind of ['jaccard', 'random'])
  for (const take of [10, 20]) {
    const nearest = neighbours(kind, take);
    const wat = prepare(newInstance(), data, nearest, take, PREC_AT);
    const as = prepare(assemblyScriptInstance(wasmFile), data, nearest, take, PREC_AT);
    wat.run();
    as.run();
    const same = sameBits(wat.out(), as.out()) && sameBits(wat.out(), jsRanks(nearest, take));
    if (!same) throw new Error(`${kind} k ${take}: the AssemblyScript module's doubles differ from the WAT's or the JS twin's`);
    // both modules' code optimized (V8 tiers wasm up) before any sample
    for (let c = 0; c < 3 * calls; c++) {
      wat.run();
      as.run();
    }
    const w = [];
    const a = [];
    // alternated: WAT then AS, AS then WAT, ...
    for (let r = 0; r < reps; r++) {
      const first = r % 2 === 0;
      (first ? w : a).push(sample(first ? wat.run : as.run));
      (first ? a : w).push(sample(first ? as.run : wat.run));
    }
    const ratio = median(a.map((x) => x.cpu)) / median(w.map((x) => x.cpu));
    process.stdout.write(
      `| ${kind} | ${take} | ${fmt(w.map((x) => x.cpu))} | ${fmt(a.map((x) => x.cpu))} | ${ratio.toFixed(3)} | ${fmt(w.map((x) => x.wall))} | ${fmt(a.map((x) => x.wall))} | yes (${targets.length} targets) |\n`,
    );
  }
process.stdout.write(`load ${load0.toFixed(1)} → ${loadavg()[0].toFixed(1)}\n`);
