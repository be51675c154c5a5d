import { describe, expect, it } from 'vitest';
import { exactRows, runTrialCell, type CellRow } from '../../src/experiment/trial.js';
import { getMechanism } from '../../src/mechanisms/registry.js';
import { sampleQueries } from '../../src/experiment/queries.js';
import { distanceMemo, evaluateAnswerSets, evaluateAnswers, recallAtK, utilityLoss } from '../../src/experiment/utility.js';
import { angularDistance, densifyRow, distanceFromDot, dotDenseRow, exactKnn } from '../../src/knn/angular.js';
import { drawHyperplanes, projectAll } from '../../src/lsh/hyperplanes.js';
import { hammingDistance, packSigns } from '../../src/lsh/codes.js';
import { deriveSeed, makeRng } from '../../src/random/rng.js';
import { lshrrEpsilon } from '../../src/privacy/index.js';
import { UserError } from '../../src/util/errors.js';
import { Z } from '../lsh/stats.js';
import { clusteredVectors, vectorsFromDense } from '../lsh/synthetic.js';

const USERS = 400;
const N = 40;
const vectors = clusteredVectors({ users: USERS, n: N, clusters: 8, seed: 'trial-data' });
const RUN_SEED = 7;
const queries = sampleQueries(USERS, 80, RUN_SEED, 'synthetic', N);
const K = [1, 5, 10];
const truth = exactKnn(vectors, queries, 10);
const PRIVACY = { d: 0.1, delta: 0.01 };

/** A trial cell asked for every (mechanism, xi) of a list, each at every k: the rows as utility.csv has them. */
interface ListSpec {
  dataset: string;
  n: number;
  kappa: number;
  trial: number;
  mechanisms: { name: string; xi: number[]; options?: Record<string, unknown> }[];
  k: number[];
  privacy: typeof PRIVACY;
  runSeed: number;
}

function spec(over: Partial<ListSpec> = {}): ListSpec {
  return { dataset: 'synthetic', n: N, kappa: 12, trial: 0, mechanisms: [{ name: 'lsh', xi: [] }], k: K, privacy: PRIVACY, runSeed: RUN_SEED, ...over };
}

function runCell(s: ListSpec): CellRow[] {
  const asked = s.mechanisms.flatMap((m) =>
    (getMechanism(m.name).usesXi ? m.xi : [null]).map((xi) => ({ id: `${m.name}|${xi}`, base: m.name, options: m.options ?? {}, xi, ks: s.k, asks: { utility: true } })),
  );
  const out = runTrialCell(vectors, queries, truth, { dataset: s.dataset, n: s.n, kappa: s.kappa, trial: s.trial, results: asked, privacy: s.privacy, runSeed: s.runSeed });
  return out.flatMap((r, i) =>
    Object.entries(r.values.utility as Record<string, [number, number]>).map(([k, [loss, recall]]) => ({
      mechanism: asked[i].base,
      kappa: s.kappa,
      xi: asked[i].xi,
      k: Number(k),
      epsilon: r.eps.epsilon,
      ldpEpsilon: r.eps.ldpEpsilon,
      fallback: getMechanism(asked[i].base).hasFallback ? r.eps.fallback : null,
      loss,
      recall,
    })),
  );
}

function row(rows: CellRow[], mechanism: string, xi: number | null, k: number): CellRow {
  const r = rows.find((x) => x.mechanism === mechanism && x.xi === xi && x.k === k);
  if (!r) throw new Error(`no row ${mechanism} ${xi} ${k}`);
  return r;
}

/** All angular distances from each query to every other user (brute force, for the references). */
const allDist: number[][] = Array.from(queries, (q) => {
  const d: number[] = [];
  for (let u = 0; u < USERS; u++) if (u !== q) d.push(angularDistance(vectors, q, u));
  return d;
});

function trueMean(qi: number, k: number): number {
  let s = 0;
  for (let i = 0; i < k; i++) s += truth.distances[qi * truth.k + i];
  return s / k;
}

/**
 * Expected utility loss of uniformly random k-subsets of the other users, and the standard error of
 * the per-trial mean over queries: a mean of k draws without replacement from N−1 values has
 * variance σ²/k · (N−1−k)/(N−2).
 */
function randomNeighbourLoss(k: number): { mean: number; se: number } {
  let m = 0;
  let v = 0;
  allDist.forEach((d, qi) => {
    const mu = d.reduce((a, b) => a + b, 0) / d.length;
    const s2 = d.reduce((a, b) => a + (b - mu) ** 2, 0) / d.length;
    m += mu - trueMean(qi, k);
    v += (s2 / k) * ((d.length - k) / (d.length - 1));
  });
  const Q = queries.length;
  return { mean: m / Q, se: Math.sqrt(v) / Q };
}

/** Mean of per-trial values and its standard error from the spread between trials. */
function meanAndTrialSe(values: number[]): { mean: number; se: number } {
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  const se = Math.sqrt(values.reduce((a, b) => a + (b - mean) ** 2, 0) / (values.length - 1) / values.length);
  return { mean, se };
}

/**
 * Expected loss of Hamming k-NN with random tie-breaks GIVEN the clean LSH codes of a trial (all
 * users below the boundary distance are taken, `need` of the m boundary users uniformly), and the
 * SE of the per-trial mean over queries from the tie-breaks alone.
 */
function lshConditionalLoss(kappa: number, trial: number, k: number): { mean: number; se: number } {
  const planes = drawHyperplanes(makeRng(deriveSeed(RUN_SEED, 'planes', 'synthetic', N, kappa, trial)), kappa, N);
  const codes = packSigns(projectAll(vectors, planes, kappa), USERS, kappa);
  let m = 0;
  let v = 0;
  queries.forEach((q, qi) => {
    const byDist = new Map<number, number[]>();
    for (let u = 0; u < USERS; u++) {
      if (u === q) continue;
      const h = hammingDistance(codes, q, u);
      if (!byDist.has(h)) byDist.set(h, []);
      byDist.get(h)!.push(angularDistance(vectors, q, u));
    }
    let left = k;
    let sum = 0;
    for (const h of [...byDist.keys()].sort((a, b) => a - b)) {
      const group = byDist.get(h)!;
      if (group.length <= left) {
        sum += group.reduce((a, b) => a + b, 0);
        left -= group.length;
        continue;
      }
      const mu = group.reduce((a, b) => a + b, 0) / group.length;
      const s2 = group.reduce((a, b) => a + (b - mu) ** 2, 0) / group.length;
      sum += left * mu;
      if (group.length > 1) v += (left * s2 * (group.length - left)) / (group.length - 1) / (k * k);
      break;
    }
    m += sum / k - trueMean(qi, k);
  });
  const Q = queries.length;
  return { mean: m / Q, se: Math.sqrt(v) / Q };
}

describe('sampleQueries', () => {
  it('draws sorted distinct users from the queries seed; everyone when 0 or too many', () => {
    expect(queries.length).toBe(80);
    for (let i = 1; i < queries.length; i++) expect(queries[i]).toBeGreaterThan(queries[i - 1]);
    expect(sampleQueries(USERS, 80, RUN_SEED, 'synthetic', N)).toEqual(queries);
    expect(sampleQueries(USERS, 80, RUN_SEED, 'synthetic', 41)).not.toEqual(queries);
    expect(Array.from(sampleQueries(5, 0, 1, 'd', 3))).toEqual([0, 1, 2, 3, 4]);
    expect(Array.from(sampleQueries(5, 9, 1, 'd', 3))).toEqual([0, 1, 2, 3, 4]);
  });
});

describe('utility', () => {
  it('computes loss and recall@k by their definitions', () => {
    expect(utilityLoss([0.3, 0.5], [0.1, 0.2], 2)).toBeCloseTo(0.25, 15);
    expect(utilityLoss([0.3, 0.5], [0.1, 0.2], 1)).toBeCloseTo(0.2, 15);
    expect(recallAtK([4, 9, 2], [2, 4, 7], 3)).toBeCloseTo(2 / 3, 15);
    expect(recallAtK([4, 9, 2], [2, 4, 7], 1)).toBe(0);
  });

  it('gives per query exactly the means of utilityLoss and recallAtK (repeated users in answers and truth, users outside it)', () => {
    const rng = makeRng('utility-reference');
    const width = 10;
    const answers = Int32Array.from({ length: queries.length * width }, (_, e) => (rng() < 0.5 ? truth.indices[e]! : Math.floor(rng() * USERS)));
    // a truth whose rows repeat users (the evaluation must count a user once, by its first place)
    const indices = truth.indices.slice();
    for (let qi = 0; qi < queries.length; qi += 3) indices[qi * truth.k + 4] = indices[qi * truth.k + 1]!;
    const odd = { ...truth, indices };
    const ks = [1, 3, 5, 10];
    for (const t of [truth, odd]) {
      const means = evaluateAnswers(vectors, queries, t, answers, width, ks);
      ks.forEach((k, i) => {
        let loss = 0;
        let recall = 0;
        for (let qi = 0; qi < queries.length; qi++) {
          const returned = Array.from(answers.subarray(qi * width, qi * width + k), (u) => angularDistance(vectors, queries[qi]!, u));
          loss += utilityLoss(returned, t.distances.subarray(qi * t.k, qi * t.k + k), k);
          recall += recallAtK(answers.subarray(qi * width, qi * width + k), t.indices.subarray(qi * t.k, qi * t.k + k), k);
        }
        expect(means.loss[i]).toBe(loss / queries.length);
        expect(means.recall[i]).toBe(recall / queries.length);
      });
    }
  });

  it('gives the exact mechanism loss exactly 0 and recall 1', () => {
    const rows = exactRows(vectors, queries, truth, [10, 1, 5]);
    expect(rows.map((r) => r.k)).toEqual([1, 5, 10]);
    for (const r of rows) {
      expect(r).toMatchObject({ mechanism: 'exact', kappa: null, xi: null, epsilon: null, ldpEpsilon: null, fallback: null, loss: 0, recall: 1 });
    }
  });

  it('evaluates a hand-made answer against brute force', () => {
    // answer: the users in reverse index order, skipping the query
    const width = 3;
    const answers = new Int32Array(queries.length * width);
    queries.forEach((q, qi) => {
      let t = 0;
      for (let u = USERS - 1; t < width; u--) if (u !== q) answers[qi * width + t++] = u;
    });
    const means = evaluateAnswers(vectors, queries, truth, answers, width, [3]);
    let expected = 0;
    queries.forEach((q, qi) => {
      const d = Array.from(answers.subarray(qi * width, qi * width + width), (u) => angularDistance(vectors, q, u));
      expected += d.reduce((a, b) => a + b, 0) / width - trueMean(qi, width);
    });
    expect(Math.abs(means.loss[0] - expected / queries.length)).toBeLessThan(1e-12);
  });

  it('evaluates several answer sets at once exactly as one by one (angular and a generic metric)', () => {
    const rng = makeRng('answer-sets');
    const set = (width: number, ks: number[], overlapWith?: Int32Array) => {
      const answers = new Int32Array(queries.length * width);
      for (let e = 0; e < answers.length; e++) {
        // users repeat across sets (the memo's case) and within a row
        answers[e] = overlapWith && rng() < 0.6 ? overlapWith[e % overlapWith.length]! : Math.floor(rng() * USERS);
      }
      return { answers, width, ks };
    };
    const a = set(10, [1, 5, 10]);
    const sets = [a, set(4, [2, 4], a.answers), set(10, [10], a.answers), { answers: truth.indices, width: truth.k, ks: [1, 10] }];
    const generic = (q: number) => (u: number) => angularDistance(vectors, q, u) * 0.5 + (u % 3) / 7;
    for (const metric of [undefined, generic]) {
      const together = evaluateAnswerSets(vectors, queries, truth, sets, metric);
      sets.forEach((s, i) => {
        expect(together[i]).toEqual(evaluateAnswers(vectors, queries, truth, s.answers, s.width, s.ks, metric));
      });
    }
    expect(evaluateAnswerSets(vectors, queries, truth, [sets[3]!])[0]!.loss).toEqual(new Float64Array([0, 0]));
    // without a memo the answers' rows may be read through first (touchAnswerRows; asked for here,
    // the table being small): the same means as without that pass and as with a memo, to the bit
    const withMemo = evaluateAnswerSets(vectors, queries, truth, sets, undefined, distanceMemo(queries.length, USERS));
    expect(evaluateAnswerSets(vectors, queries, truth, sets, undefined, undefined, true)).toEqual(withMemo);
    expect(evaluateAnswerSets(vectors, queries, truth, sets, undefined, undefined, false)).toEqual(withMemo);
    expect(() => evaluateAnswerSets(vectors, queries, truth, [{ answers: a.answers, width: 10, ks: [11] }])).toThrow(RangeError);
    // a memo kept across calls (the cells of a group) gives the same means, whatever came before
    for (const metric of [undefined, generic]) {
      const memo = distanceMemo(queries.length, USERS);
      const first = evaluateAnswerSets(vectors, queries, truth, sets.slice(0, 2), metric, memo);
      const filled = memo.seen!.reduce((s, v) => s + v, 0);
      expect(filled).toBeGreaterThan(0);
      const later = evaluateAnswerSets(vectors, queries, truth, sets.slice(1), metric, memo);
      sets.forEach((s, i) => {
        const alone = evaluateAnswers(vectors, queries, truth, s.answers, s.width, s.ks, metric);
        if (i < 2) expect(first[i]).toEqual(alone);
        if (i >= 1) expect(later[i - 1]).toEqual(alone);
      });
      // every distance the memo holds is the one computed from scratch
      for (let e = 0; e < memo.seen!.length; e += 7) {
        if (!memo.seen![e]) continue;
        const q = queries[Math.floor(e / USERS)]!;
        const u = e % USERS;
        expect(memo.known[e]).toBe(metric ? generic(q)(u) : angularDistance(vectors, q, u));
      }
    }
    expect(() => evaluateAnswerSets(vectors, queries, truth, sets, undefined, distanceMemo(queries.length, USERS - 1))).toThrow(RangeError);
    // a complete memo (the exact neighbours' distances to every user) gives the same means, and is
    // what the evaluation reads: a complete memo of other numbers gives other means
    const all = exactKnn(vectors, queries, 10, { all: true }).all!;
    const complete = evaluateAnswerSets(vectors, queries, truth, sets, undefined, { seen: null, known: all });
    sets.forEach((s, i) => {
      expect(complete[i]).toEqual(evaluateAnswers(vectors, queries, truth, s.answers, s.width, s.ks));
    });
    // one set of one answer per query reads its rows at random; many sets read each row through
    // first (a cache matter only): both give the means of evaluateAnswers
    const oneAnswer = { answers: sets[0]!.answers, width: sets[0]!.width, ks: [1] };
    expect(evaluateAnswerSets(vectors, queries, truth, [oneAnswer], undefined, { seen: null, known: all })[0]).toEqual(
      evaluateAnswers(vectors, queries, truth, oneAnswer.answers, oneAnswer.width, [1]),
    );
    const other = evaluateAnswerSets(vectors, queries, truth, sets, undefined, { seen: null, known: all.map((d) => d / 2) });
    expect(other[0]!.loss).not.toEqual(complete[0]!.loss);
  });

  it('gives the means of utilityLoss and recallAtK on check-in-like rows: duplicate rows and queries, rows sharing no column, padded answers', () => {
    // 300 columns (c and c + 128 share a signature bit), 1-3 columns a user, a quarter of the users
    // copies of 12 single-column rows, and two rows whose dot cancels to exactly 0
    const rng = makeRng('checkin-like');
    const n = 300;
    const rows = Array.from({ length: 240 }, (_, u) => {
      const row = new Array<number>(n).fill(0);
      if (u % 4 === 0) row[(u * 7) % 12] = 1;
      else for (let i = 0, m = 1 + Math.floor(rng() * 3); i < m; i++) row[Math.floor(rng() ** 2 * n)] = 1 + Math.floor(rng() * 5);
      return row;
    });
    rows[1] = rows[1]!.map((_, c) => (c === 0 ? 0.6 : c === 1 ? 0.8 : 0));
    rows[2] = rows[2]!.map((_, c) => (c === 0 ? 0.8 : c === 1 ? -0.6 : 0));
    const sparse = vectorsFromDense(rows);
    expect(angularDistance(sparse, 1, 2)).toBe(0.5);
    const qs = Int32Array.from([...Array.from({ length: 240 }, (_, u) => u), 4, 4, 1, 2, 130]);
    const t = exactKnn(sparse, qs, 10);
    const width = 10;
    const answer = (pad: boolean) => Int32Array.from({ length: qs.length * width }, (_, e) => (pad && e % width >= 7 && e % 3 === 0 ? -1 : rng() < 0.3 ? t.indices[e]! : Math.floor(rng() * 240)));
    const sets = [
      { answers: answer(false), width, ks: [1, 5, 10] },
      { answers: answer(true), width, ks: [1, 5, 10] },
      { answers: t.indices, width, ks: [1, 10] },
    ];
    const dense = new Float64Array(n);
    const together = evaluateAnswerSets(sparse, qs, t, sets);
    sets.forEach((set, s) => {
      set.ks.forEach((k, i) => {
        let loss = 0;
        let recall = 0;
        for (let qi = 0; qi < qs.length; qi++) {
          densifyRow(sparse, qs[qi]!, dense);
          const row = set.answers.subarray(qi * width, qi * width + k);
          const returned = Array.from(row, (u) => distanceFromDot(dotDenseRow(dense, sparse, u)));
          loss += utilityLoss(returned, t.distances.subarray(qi * t.k, qi * t.k + k), k);
          recall += recallAtK(row, t.indices.subarray(qi * t.k, qi * t.k + k), k);
        }
        expect(together[s]!.loss[i], `set ${s}, k ${k}`).toBe(loss / qs.length);
        expect(together[s]!.recall[i], `set ${s}, k ${k}`).toBe(recall / qs.length);
      });
      expect(evaluateAnswers(sparse, qs, t, set.answers, set.width, set.ks)).toEqual(together[s]);
    });
    expect(together[2]!.loss).toEqual(new Float64Array([0, 0]));
    expect(evaluateAnswerSets(sparse, qs, t, sets, undefined, distanceMemo(qs.length, 240))).toEqual(together);
    expect(evaluateAnswerSets(sparse, qs, t, sets, undefined, undefined, true)).toEqual(together);
  });

  it("runTrialCell gives the same numbers with the exact neighbours' distances to every user as without", () => {
    const results = [
      { id: 'lsh', base: 'lsh', options: {}, xi: null, ks: [1, 5, 10], asks: { utility: true } },
      { id: 'lshrr', base: 'lshrr', options: {}, xi: 2, ks: [1, 10], asks: { utility: true } },
      { id: 'laplsh', base: 'laplsh', options: {}, xi: 5, ks: [10], asks: { utility: true } },
    ];
    const cellSpec = { dataset: 'synthetic', n: N, kappa: 12, trial: 0, results, privacy: { d: 0.1, delta: 0.01 }, runSeed: RUN_SEED };
    const withAll = runTrialCell(vectors, queries, { ...truth, all: exactKnn(vectors, queries, 10, { all: true }).all }, cellSpec);
    expect(withAll).toEqual(runTrialCell(vectors, queries, truth, cellSpec));
    // a table of other numbers is read (so the equality above is not vacuous)
    const wrong = runTrialCell(vectors, queries, { ...truth, all: new Float64Array(queries.length * USERS) }, cellSpec);
    expect(wrong[0]!.values.utility).not.toEqual(withAll[0]!.values.utility);
  });
});

describe('runTrialCell', () => {
  const cell = spec({
    mechanisms: [
      { name: 'lsh', xi: [] },
      { name: 'lshrr', xi: [0, 1e4] },
    ],
  });
  const rows = runCell(cell);

  it('orders rows mechanism, xi (spec order), k ascending, and fills the fields', () => {
    const unsorted = runCell({ ...cell, mechanisms: [{ name: 'lshrr', xi: [1e4, 0] }], k: [10, 1, 5] });
    expect(unsorted.map((r) => [r.xi, r.k])).toEqual([
      [1e4, 1],
      [1e4, 5],
      [1e4, 10],
      [0, 1],
      [0, 5],
      [0, 10],
    ]);
    expect(rows.map((r) => `${r.mechanism}:${r.xi}:${r.k}`)).toEqual([
      'lsh:null:1',
      'lsh:null:5',
      'lsh:null:10',
      'lshrr:0:1',
      'lshrr:0:5',
      'lshrr:0:10',
      'lshrr:10000:1',
      'lshrr:10000:5',
      'lshrr:10000:10',
    ]);
    expect(row(rows, 'lsh', null, 5)).toMatchObject({ kappa: 12, epsilon: null, ldpEpsilon: null, fallback: null });
    const info = lshrrEpsilon(1e4, 12, PRIVACY);
    expect(row(rows, 'lshrr', 1e4, 5)).toMatchObject({ kappa: 12, epsilon: info.epsilon, ldpEpsilon: info.ldpEpsilon, fallback: info.fallback });
  });

  it('LSHRR at xi = 0 matches a uniformly random neighbour (exact expectation, SE from the trials)', () => {
    const trials = [0, 1, 2, 3, 4, 5];
    const cells = trials.map((t) => runCell(spec({ trial: t, mechanisms: [{ name: 'lshrr', xi: [0] }] })));
    for (const k of K) {
      const ref = randomNeighbourLoss(k);
      const got = cells.map((rows) => row(rows, 'lshrr', 0, k).loss);
      // the queries of one trial share one set of random codes, so they are not independent draws:
      // the spread between trials measures the real SE (the iid term is kept as a floor)
      const { mean, se } = meanAndTrialSe(got);
      expect(Math.abs(mean - ref.mean)).toBeLessThan(Z * Math.hypot(se, ref.se / Math.sqrt(got.length)));
    }
  });

  it('LSH and LSHRR at large xi both equal the exact expectation given the trial codes, and beat random', () => {
    for (const k of K) {
      const ref = lshConditionalLoss(12, 0, k);
      const lsh = row(rows, 'lsh', null, k).loss;
      const rr = row(rows, 'lshrr', 1e4, k).loss;
      // an SE of 0 (no boundary ties at all) leaves only rounding
      const tol = Z * ref.se + 1e-12;
      expect(Math.abs(lsh - ref.mean)).toBeLessThanOrEqual(tol);
      expect(Math.abs(rr - ref.mean)).toBeLessThanOrEqual(tol);
      const random = randomNeighbourLoss(k);
      expect(lsh).toBeLessThan(random.mean - Z * random.se);
      expect(row(rows, 'lsh', null, k).recall).toBeGreaterThan(row(rows, 'lshrr', 0, k).recall);
    }
  });

  it('RAPPOR on the whole vector stays at the random level even at a huge budget; the item-set Bloom filter does not (Sect. 6.4)', () => {
    const trials = [0, 1, 2, 3, 4, 5];
    const cellsAt = (t: number) =>
      runCell(
        spec({
          trial: t,
          kappa: 32,
          mechanisms: [
            { name: 'rappor-vector', xi: [1e4] },
            { name: 'rappor', xi: [1e4] },
          ],
        }),
      );
    const cells = trials.map(cellsAt);
    for (const k of K) {
      const ref = randomNeighbourLoss(k);
      const got = cells.map((rows) => row(rows, 'rappor-vector', 1e4, k).loss);
      // codes are independent of the vectors, so the answers are; the SE is taken from the trials
      // themselves (queries of one trial share one set of codes, so they are not independent draws)
      const { mean, se } = meanAndTrialSe(got);
      expect(Math.abs(mean - ref.mean)).toBeLessThan(Z * Math.hypot(se, ref.se / Math.sqrt(got.length)));
      const items = meanAndTrialSe(cells.map((rows) => row(rows, 'rappor', 1e4, k).loss));
      expect(items.mean).toBeLessThan(ref.mean - Z * ref.se);
    }
  });

  it('is deterministic and a cell does not depend on the other mechanisms or cells computed', () => {
    expect(runCell(cell)).toEqual(rows);
    const alone = runCell(spec({ mechanisms: [{ name: 'lshrr', xi: [1e4] }] }));
    expect(alone).toEqual(rows.filter((r) => r.mechanism === 'lshrr' && r.xi === 1e4));
    const other = runCell(spec({ trial: 1, mechanisms: [{ name: 'lshrr', xi: [0] }] }));
    expect(other).not.toEqual(rows.filter((r) => r.mechanism === 'lshrr' && r.xi === 0));
  });

  it('shares draws across the xi of a trial, yet a result is the same computed alone, beside others or in another order', () => {
    const noisy = ['laplsh', 'vmf', 'purkayastha'];
    for (const name of noisy) {
      for (const options of [{}, { sampler: 'direct' }]) {
        const together = runCell(spec({ kappa: 12, mechanisms: [{ name, xi: [1, 5, 20], options }] }));
        const reversed = runCell(spec({ kappa: 12, mechanisms: [{ name, xi: [20, 5, 1], options }] }));
        for (const xi of [1, 5, 20]) {
          const alone = runCell(spec({ kappa: 12, mechanisms: [{ name, xi: [xi], options }] }));
          expect(alone).toEqual(together.filter((r) => r.xi === xi));
          expect(reversed.filter((r) => r.xi === xi)).toEqual(alone);
        }
        // another trial draws other directions
        const other = runCell(spec({ trial: 1, kappa: 12, mechanisms: [{ name, xi: [5], options }] }));
        expect(other).not.toEqual(together.filter((r) => r.xi === 5));
      }
    }
  });

  it('runs laplsh and rappor, and rejects a k larger than the data allow', () => {
    const out = runCell(
      spec({
        mechanisms: [
          { name: 'laplsh', xi: [1] },
          { name: 'rappor', xi: [1], options: { hashes: 2 } },
        ],
      }),
    );
    expect(out.map((r) => r.mechanism)).toEqual(['laplsh', 'laplsh', 'laplsh', 'rappor', 'rappor', 'rappor']);
    for (const r of out) {
      expect(r.fallback).toBeNull();
      expect(Number.isFinite(r.loss) && r.loss >= 0).toBe(true);
    }
    expect(() => runCell(spec({ k: [USERS] }))).toThrow(UserError);
  });
});
