#!/usr/bin/env node
// The exact angular k-NN alone on the MovieLens-25M-shaped data of `npm run bench` (generated
// there into data/bench/full/movielens; its vector cache in data/bench/full/cache): the vectors
// of each n loaded once, then exactKnn over the same queries with the inverted index in JS (the
// code before the tiles, `kernel: 'js'`) and with the tiles in the WebAssembly module, alternated
// round by round. Prints each time, the medians, their ratio, and whether both answers (indices
// and distance doubles) are identical. Needs `npm run build`.
//
//   node scripts/bench-exact.mjs [--dims 100,1000] [--queries 1000] [--k 10] [--rounds 3] [--all] [--threads 2]
//
// --threads 2 is the 25M grid's exact phase (src/machinery/compute.ts): the queries split in two
// halves, each computed by its own worker thread on the same shared vectors, the wall time until
// both are done (and the CPU seconds of the process). --all asks for the distances to every user as
// well (the grid asks for them only on small data).
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const { exactKnn } = await import(join(ROOT, 'dist', 'knn', 'angular.js'));

if (!isMainThread) {
  // a worker: exactKnn of its slice of the queries, as asked
  const { vectors } = workerData;
  parentPort.on('message', ({ queries, k, kernel, all }) => {
    const out = exactKnn(vectors, queries, k, { kernel, all });
    parentPort.postMessage(out);
  });
} else {
  await main();
}

async function main() {
  const { loadDataset } = await import(join(ROOT, 'dist', 'data', 'load.js'));
  const { hammingKernelName } = await import(join(ROOT, 'dist', 'kernels', 'instance.js'));
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
  const threads = Number(option('threads', '1'));
  const all = argv.includes('--all');

  const bench = join(ROOT, 'data', 'bench', 'full');
  const ratings = join(bench, 'movielens', 'ratings.csv');
  if (!existsSync(ratings)) {
    console.error(`no ${ratings}: run \`npm run bench -- --stages knn\` once to generate it`);
    process.exit(2);
  }
  if (hammingKernelName() !== 'wasm-simd') {
    console.error('the WebAssembly kernel does not run here (LSHDP_KERNEL=js?)');
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
  const shared = (a) => {
    const out = new a.constructor(new SharedArrayBuffer(a.byteLength));
    out.set(a);
    return out;
  };
  const fmt = (xs) => xs.map((x) => x.toFixed(2)).join(' ');

  for (const n of dims) {
    const loaded = data.vectors.get(n);
    const v = { dataset: loaded.dataset, n: loaded.n, rowPtr: shared(loaded.rowPtr), colIdx: shared(loaded.colIdx), values: shared(loaded.values) };
    const users = v.rowPtr.length - 1;
    const queries = sampleWithoutReplacement(makeRng('bench'), users, Math.min(nq, users));
    const workers = threads > 1 ? Array.from({ length: threads }, () => new Worker(fileURLToPath(import.meta.url), { workerData: { vectors: v } })) : [];
    /** The answer of one kernel: in this thread, or the queries split over the workers (joined in order). */
    const run = async (kernel) => {
      if (workers.length === 0) return exactKnn(v, queries, k, { kernel, all });
      const at = (p) => Math.round((p * queries.length) / workers.length);
      const parts = await Promise.all(
        workers.map(
          (w, p) =>
            new Promise((resolve) => {
              w.once('message', resolve);
              w.postMessage({ queries: queries.slice(at(p), at(p + 1)), k, kernel, all });
            }),
        ),
      );
      const join = (key, Ctor) => {
        const out = new Ctor(parts.reduce((s, r) => s + r[key].length, 0));
        let o = 0;
        for (const r of parts) {
          out.set(r[key], o);
          o += r[key].length;
        }
        return out;
      };
      return { k, indices: join('indices', Int32Array), distances: join('distances', Float64Array), ...(all ? { all: join('all', Float64Array) } : {}) };
    };
    const wall = { js: [], wasm: [] };
    const cpu = { js: [], wasm: [] };
    let identical = true;
    for (let r = 0; r < rounds; r++) {
      const out = {};
      // alternate which goes first, so a drift of the machine's load favours neither
      for (const kernel of r % 2 ? ['wasm', 'js'] : ['js', 'wasm']) {
        const c0 = process.cpuUsage();
        const t0 = process.hrtime.bigint();
        out[kernel] = await run(kernel);
        wall[kernel].push(Number(process.hrtime.bigint() - t0) / 1e9);
        const c = process.cpuUsage(c0);
        cpu[kernel].push((c.user + c.system) / 1e6);
      }
      identical &&= same(out.js, out.wasm);
    }
    for (const w of workers) await w.terminate();
    const ratio = (m) => (median(m.js) / median(m.wasm)).toFixed(2);
    console.log(
      `n=${n} users=${users} queries=${queries.length} k=${k}${all ? ' all' : ''} threads=${Math.max(1, threads)}: wall js ${fmt(wall.js)} s, wasm tiles ${fmt(wall.wasm)} s ` +
        `(medians ${median(wall.js).toFixed(2)} / ${median(wall.wasm).toFixed(2)} s = ${ratio(wall)}x); CPU medians ${median(cpu.js).toFixed(2)} / ${median(cpu.wasm).toFixed(2)} s = ${ratio(cpu)}x; identical: ${identical}`,
    );
  }
}
