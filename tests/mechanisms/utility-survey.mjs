// Utility loss of every mechanism on clustered synthetic data (not a test: run
// `npx tsc -p . && node tests/mechanisms/utility-survey.mjs`). Used for the RAPPOR remarks in
// docs/MECHANISMS.md: how far from a random neighbour is RAPPOR's Bloom-filter Hamming k-NN?
import { runTrialCell, exactRows } from '../../dist/experiment/trial.js';
import { sampleQueries } from '../../dist/experiment/queries.js';
import { exactKnn } from '../../dist/knn/angular.js';
import { makeRng } from '../../dist/random/rng.js';

const USERS = 3000,
  N = 100,
  CLUSTERS = 30,
  TRIALS = 3;
const rng = makeRng('survey');
const profiles = Array.from({ length: CLUSTERS }, () => {
  const items = new Set();
  while (items.size < 12) items.add(Math.floor(rng() * N));
  return [...items].map((c) => [c, rng() * 4 - 2]);
});
const rowPtr = new Int32Array(USERS + 1),
  cols = [],
  vals = [];
for (let i = 0; i < USERS; i++) {
  const row = new Map();
  for (const [c, v] of profiles[i % CLUSTERS]) if (rng() < 0.7) row.set(c, v + rng() - 0.5);
  for (let e = 0; e < 3; e++) {
    const c = Math.floor(rng() * N);
    row.set(c, (row.get(c) ?? 0) + rng() * 2 - 1);
  }
  const entries = [...row].filter(([, v]) => v !== 0).sort((a, b) => a[0] - b[0]);
  const norm = Math.hypot(...entries.map(([, v]) => v));
  for (const [c, v] of entries) {
    cols.push(c);
    vals.push(v / norm);
  }
  rowPtr[i + 1] = cols.length;
}
const vectors = { dataset: 'survey', n: N, userIds: [], itemIds: [], rowPtr, colIdx: Int32Array.from(cols), values: Float64Array.from(vals), dropped: 0 };
const queries = sampleQueries(USERS, 300, 1, 'survey', N);
const truth = exactKnn(vectors, queries, 10);
const xi = [0, 1, 5, 10, 20, 50, 1e4];
console.log(
  'exact',
  exactRows(vectors, queries, truth, [10]).map((r) => r.loss),
);
for (const kappa of [20, 50]) {
  const acc = new Map();
  for (let trial = 0; trial < TRIALS; trial++) {
    const rows = runTrialCell(vectors, queries, truth, {
      dataset: 'survey',
      n: N,
      kappa,
      trial,
      k: [10],
      privacy: { d: 0.1, delta: 0.01 },
      runSeed: 1,
      mechanisms: [
        { name: 'lsh', xi: [] },
        { name: 'lshrr', xi },
        { name: 'laplsh', xi },
        { name: 'rappor', xi, options: { hashes: 2 } },
      ],
    });
    for (const r of rows) {
      const key = `${r.mechanism} xi=${r.xi}`;
      const a = acc.get(key) ?? [0, 0];
      acc.set(key, [a[0] + r.loss / TRIALS, a[1] + r.recall / TRIALS]);
    }
  }
  console.log(`kappa=${kappa} k=10 (mean of ${TRIALS} trials): loss / recall`);
  for (const [key, [loss, recall]] of acc) console.log(`  ${key.padEnd(22)} ${loss.toFixed(4)}  ${recall.toFixed(3)}`);
}
