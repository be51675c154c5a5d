// Benchmark of the LSH / mechanism kernels (not a test: run `npx tsc -p . && node tests/lsh/bench-lsh.mjs`).
// Synthetic codes at the paper's scale (162,541 users, 1000 queries) and a small LapLSH workload.
import { hammingKnn } from '../../dist/lsh/hammingKnn.js';
import { emptyCodes } from '../../dist/lsh/codes.js';
import { flipBits, GEOMETRIC_BELOW } from '../../dist/mechanisms/flips.js';
import { getMechanism } from '../../dist/mechanisms/registry.js';
import { drawHyperplanes, projectAll } from '../../dist/lsh/hyperplanes.js';
import { makeRng } from '../../dist/random/rng.js';

const USERS = Number(process.env.USERS ?? 162_541);
const QUERIES = Number(process.env.QUERIES ?? 1000);
const K = 10;

function randomCodes(users, bits, seed) {
  const rng = makeRng(seed);
  const set = emptyCodes(users, bits);
  flipBits(set, 0.5, rng);
  return set;
}

function time(label, f) {
  const t0 = process.hrtime.bigint();
  const r = f();
  const s = Number(process.hrtime.bigint() - t0) / 1e9;
  return { r, s, label };
}

const queries = new Int32Array(QUERIES);
for (let i = 0; i < QUERIES; i++) queries[i] = Math.floor((i * USERS) / QUERIES);

for (const bits of [10, 16, 20, 50]) {
  const set = randomCodes(USERS, bits, `bench-${bits}`);
  const paths = bits <= 16 ? ['scan', 'bucket'] : ['scan'];
  for (const path of paths) {
    hammingKnn(set, queries.subarray(0, 20), K, 1, { path });
    const { s } = time(path, () => hammingKnn(set, queries, K, 2, { path }));
    const pairs = USERS * QUERIES;
    console.log(`hammingKnn bits=${bits} path=${path}: ${s.toFixed(3)} s for ${QUERIES} queries x ${USERS} users = ${(pairs / s / 1e6).toFixed(0)} M pairs/s`);
  }
}

// flip strategies at several p: geometric skipping vs one uniform per bit
for (const p of [0.01, 0.1, 0.2, 0.3, 0.45]) {
  const set = randomCodes(USERS, 50, 'flip');
  const { s } = time('flip', () => flipBits(set, p, makeRng('f')));
  console.log(`flipBits p=${p} (${p < GEOMETRIC_BELOW ? 'geometric' : 'per-bit'}): ${((USERS * 50) / s / 1e6).toFixed(0)} M bits/s`);
}

// LapLSH samplers
const laplsh = getMechanism('laplsh');
const LAP_USERS = Number(process.env.LAP_USERS ?? 20_000);
for (const [n, kappa] of [
  [100, 20],
  [500, 20],
  [1000, 50],
]) {
  const rng = makeRng('lapdata');
  const rowPtr = new Int32Array(LAP_USERS + 1);
  const cols = [];
  const vals = [];
  for (let i = 0; i < LAP_USERS; i++) {
    const set = new Set();
    while (set.size < 8) set.add(Math.floor(rng() * n));
    for (const c of [...set].sort((a, b) => a - b)) {
      cols.push(c);
      vals.push(1 / Math.sqrt(8));
    }
    rowPtr[i + 1] = cols.length;
  }
  const vectors = { dataset: 'b', n, userIds: [], itemIds: [], rowPtr, colIdx: Int32Array.from(cols), values: Float64Array.from(vals), dropped: 0 };
  const planes = drawHyperplanes(makeRng('p'), kappa, n);
  const hashing = { kappa, n, planes, projections: projectAll(vectors, planes, kappa) };
  const eps = { epsilon: 1, ldpEpsilon: 2, fallback: false };
  const t = {};
  for (const sampler of ['direct', 'projected']) {
    t[sampler] = time(sampler, () => laplsh.encode({ vectors, hashing, rng: makeRng('n'), options: { sampler } }, eps)).s;
  }
  console.log(`laplsh n=${n} kappa=${kappa} ${LAP_USERS} users: direct ${t.direct.toFixed(2)} s, projected ${t.projected.toFixed(3)} s, speedup ${(t.direct / t.projected).toFixed(0)}x`);
}
