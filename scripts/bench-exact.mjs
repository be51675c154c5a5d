#!/usr/bin/env node
// The exact angular k-NN alone on the MovieLens-25M-shaped data of `npm run bench` (generated
// there into data/bench/full/movielens; its vector cache in data/bench/full/cache): the vectors
// of each n loaded once, then exactKnn over the same queries with the inverted index in JS (the
// code before the tiles, `kernel: 'js'`) and with the tiles in the WebAssembly module, alternated
// round by round. Prints each time, the medians, their ratio, and whether both answers (indices
// and distance doubles) are identical. Needs `npm run build`.
//
//   node scripts/bench-exact.mjs [--dims 100,1000] [--queries 1000] [--k 10] [--rounds 3] [--all]
//
// --queries 500 is one worker's share of the 25M grid's exact phase (two threads, 1000 queries).
// --all asks for the distances to every user as well (the grid asks for them only on small data).
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const { loadDataset } = await import(join(ROOT, 'dist', 'data', 'load.js'));
const { exactKnn } = await import(join(ROOT, 'dist', 'knn', 'angular.js'));
const { hammingKernelName } = await import(join(ROOT, 'dist', 'kernels', 'kernel.js'));
const { makeRng } = await import(join(ROOT, 'dist', 'random', 'rng.js'));
const { sampleWithoutReplacement } = await import(join(ROOT, 'dist', 'random', 'samplers.js'));

const argv = process.argv.slice(2);
const option = (name, fallback) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : fallback;
};
const dims = option('dims', '100,1000').split(',').map(Number);
const nq = Number(option('queries', '1000'));
const k = Number(option('k', '10'));
const rounds = Number(option('rounds', '3'));
const all = argv.includes('--all');

const bench = join(ROOT, 'data', 'bench', 'full');
const ratings = join(bench, 'movielens', 'ratings.csv');
if (!existsSync(ratings)) {
  console.error(`no ${ratings}: run \`npm run bench -- --stages knn\` once to generate it`);
  process.exit(2);
}
if (hammingKernelName() !== 'wasm-simd') {
  console.error('the WebAssembly kernel does not run here (LSHDP_HAMMING_KERNEL=js?)');
  process.exit(2);
}
const spec = { name: 'ml', format: 'movielens-csv', path: ratings };
const data = await loadDataset(spec, dims, { cacheDir: join(bench, 'cache') });

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const same = (a, b) =>
  a.indices.length === b.indices.length &&
  a.indices.every((x, i) => x === b.indices[i]) &&
  a.distances.every((x, i) => Object.is(x, b.distances[i])) &&
  (!a.all || a.all.every((x, i) => Object.is(x, b.all[i])));

for (const n of dims) {
  const v = data.vectors.get(n);
  const users = v.rowPtr.length - 1;
  const queries = sampleWithoutReplacement(makeRng('bench'), users, Math.min(nq, users));
  const times = { js: [], wasm: [] };
  let identical = true;
  for (let r = 0; r < rounds; r++) {
    const out = {};
    // alternate which goes first, so a drift of the machine's load favours neither
    for (const kernel of r % 2 ? ['wasm', 'js'] : ['js', 'wasm']) {
      const t0 = process.hrtime.bigint();
      out[kernel] = exactKnn(v, queries, k, { kernel, all });
      times[kernel].push(Number(process.hrtime.bigint() - t0) / 1e9);
    }
    identical &&= same(out.js, out.wasm);
  }
  const js = median(times.js);
  const wasm = median(times.wasm);
  const fmt = (xs) => xs.map((x) => x.toFixed(2)).join(' ');
  console.log(
    `n=${n} users=${users} queries=${queries.length} k=${k}${all ? ' all' : ''}: js ${fmt(times.js)} s, wasm tiles ${fmt(times.wasm)} s; medians ${js.toFixed(2)} / ${wasm.toFixed(2)} s = ${(js / wasm).toFixed(2)}x; identical: ${identical}`,
  );
}
