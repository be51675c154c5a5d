/**
 * The two-dimensional toy example of Sect. 4 ("Privacy Properties of LSH"), computed exactly.
 *
 * A random-projection hash with direction r uniform on the circle maps x to h(x) = [r·x >= 0].
 * As a function of r's angle phi, h(x) = 1 exactly on the closed half circle
 * [theta_x - pi/2, theta_x + pi/2], so the circle is cut by the boundary angles theta_x ± pi/2 into
 * arcs on which every input hashes the same way: each arc is one deterministic hash function, with
 * probability arc / 2pi. Arcs giving the same function are merged. No sampling is involved; the
 * only arithmetic is on angles (boundaries themselves have measure zero and are ignored).
 */

export type Point2 = readonly [number, number];

export interface ToyFunction {
  /** h1, h2, …: paper numbering (see `orderFunctions`) */
  name: string;
  /** outputs[i] = h(points[i]) */
  outputs: number[];
  probability: number;
  /** `a/b` when the probability is a simple fraction (denominator <= 720), else null */
  fraction: string | null;
  /** number of distinct outputs over the inputs (1 or 2) */
  classes: number;
  /** min-entropy leakage under a uniform prior of this deterministic channel: log2(classes) */
  minEntropyLeakage: number;
  /** Shannon leakage (mutual information) under a uniform prior: the entropy of h(X) */
  shannonLeakage: number;
  /** indices of inputs whose output no other input shares: released h identifies them exactly */
  singledOut: number[];
}

export interface ToyResult {
  points: Point2[];
  functions: ToyFunction[];
  /** mixed channel (hyperplane secret): rows[i] = [P(h(x_i)=0), P(h(x_i)=1)] */
  channel: number[][];
  /** min-entropy leakage of the mixed channel, uniform prior: log2 sum_y max_x C[x][y] */
  channelMinEntropyLeakage: number;
  /** Shannon leakage (mutual information) of the mixed channel, uniform prior */
  channelShannonLeakage: number;
  /** hyperplane released: E_h[min-entropy leakage of h] */
  expectedMinEntropyLeakage: number;
  /** hyperplane released: E_h[Shannon leakage of h] */
  expectedShannonLeakage: number;
  /**
   * hyperplane released, min-entropy leakage of the joint channel X -> (h, h(X)), uniform prior:
   * log2 sum_h p_h · classes(h) (an adversary's one-try guess; >= the expectation above by Jensen)
   */
  jointMinEntropyLeakage: number;
  /** P(input i is singled out exactly) = sum of p_h over the functions that single it out */
  singledOutProbability: number[];
}

const TWO_PI = 2 * Math.PI;
/** arcs shorter than this are boundary coincidences in floating point, not real arcs */
const ARC_EPS = 1e-12;

function mod2pi(a: number): number {
  const r = a % TWO_PI;
  return r < 0 ? r + TWO_PI : r;
}

/** `a/b` when p is within 1e-9 of a fraction with denominator <= maxDen, else null. */
export function simpleFraction(p: number, maxDen = 720): string | null {
  for (let den = 1; den <= maxDen; den++) {
    const num = Math.round(p * den);
    if (Math.abs(num / den - p) < 1e-9) return den === 1 ? String(num) : `${num}/${den}`;
  }
  return null;
}

function log2(x: number): number {
  return Math.log(x) / Math.LN2;
}

/** Entropy in bits of a distribution given by counts or probabilities. */
function entropyBits(ps: number[]): number {
  const total = ps.reduce((a, b) => a + b, 0);
  let h = 0;
  for (const p of ps) if (p > 0) h -= (p / total) * log2(p / total);
  return h;
}

/**
 * Paper numbering of Sect. 4: complementary pairs first, each pair as (the function mapping the
 * first input to 1, its complement), pairs ordered by that first function's output bits
 * (lexicographically); then the constant functions, all-ones before all-zeros. This reproduces
 * h1..h6 of the paper for its three points and is a deterministic order for any input set.
 */
function orderKey(outputs: number[]): [number, string, number] {
  const constant = outputs.every((b) => b === outputs[0]);
  if (constant) return [1, '', outputs[0] === 1 ? 0 : 1];
  const rep = outputs[0] === 1 ? outputs : outputs.map((b) => 1 - b);
  return [0, rep.join(''), outputs[0] === 1 ? 0 : 1];
}

function compareKeys(a: [number, string, number], b: [number, string, number]): number {
  if (a[0] !== b[0]) return a[0] - b[0];
  if (a[1] !== b[1]) return a[1] < b[1] ? -1 : 1;
  return a[2] - b[2];
}

/** Parse `"0,1;1,0;1,1"` into points; throws a plain Error with the reason (the CLI wraps it). */
export function parsePoints(text: string): Point2[] {
  const parts = text
    .split(';')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  if (parts.length === 0) throw new Error('no points given (expected e.g. "0,1;1,0;1,1")');
  return parts.map((p, i) => {
    const xy = p.split(',').map((s) => s.trim());
    const nums = xy.map(Number);
    if (xy.length !== 2 || xy.some((s) => s === '') || nums.some((v) => !Number.isFinite(v))) {
      throw new Error(`point ${i + 1} "${p}" is not two numbers "x,y"`);
    }
    return [nums[0], nums[1]] as const;
  });
}

/** Exact analysis of the random-hyperplane hash on a small set of non-zero 2-D points. */
export function analyzeToy(points: Point2[]): ToyResult {
  if (points.length === 0) throw new Error('need at least one point');
  points.forEach((p, i) => {
    if (p[0] === 0 && p[1] === 0) throw new Error(`point ${i + 1} is the origin, whose hash does not depend on r`);
  });
  const thetas = points.map((p) => Math.atan2(p[1], p[0]));
  const boundaries = thetas.flatMap((t) => [mod2pi(t - Math.PI / 2), mod2pi(t + Math.PI / 2)]);
  boundaries.sort((a, b) => a - b);

  // Walk the arcs between consecutive boundaries (the last one wraps around through 2pi).
  const byOutputs = new Map<string, { outputs: number[]; probability: number }>();
  for (let i = 0; i < boundaries.length; i++) {
    const start = boundaries[i];
    const end = i + 1 < boundaries.length ? boundaries[i + 1] : boundaries[0] + TWO_PI;
    const arc = end - start;
    if (arc < ARC_EPS) continue;
    const mid = start + arc / 2;
    const r = [Math.cos(mid), Math.sin(mid)];
    const outputs = points.map((p) => (r[0] * p[0] + r[1] * p[1] >= 0 ? 1 : 0));
    const key = outputs.join('');
    const entry = byOutputs.get(key);
    if (entry) entry.probability += arc / TWO_PI;
    else byOutputs.set(key, { outputs, probability: arc / TWO_PI });
  }

  const raw = [...byOutputs.values()].sort((a, b) => compareKeys(orderKey(a.outputs), orderKey(b.outputs)));
  const m = points.length;
  const functions: ToyFunction[] = raw.map((f, j) => {
    const ones = f.outputs.filter((b) => b === 1).length;
    const classes = ones === 0 || ones === m ? 1 : 2;
    const singledOut: number[] = [];
    f.outputs.forEach((b, i) => {
      if (f.outputs.filter((c) => c === b).length === 1) singledOut.push(i);
    });
    return {
      name: `h${j + 1}`,
      outputs: f.outputs,
      probability: f.probability,
      fraction: simpleFraction(f.probability),
      classes,
      minEntropyLeakage: log2(classes),
      shannonLeakage: entropyBits([ones, m - ones]),
      singledOut,
    };
  });

  // Mixed channel: the hyperplane stays secret, the observer sees one bit.
  const channel = points.map((_, i) => {
    let p1 = 0;
    for (const f of functions) if (f.outputs[i] === 1) p1 += f.probability;
    return [1 - p1, p1];
  });
  let sumMax = 0;
  for (let y = 0; y < 2; y++) sumMax += Math.max(...channel.map((row) => row[y]));
  const channelMinEntropyLeakage = log2(sumMax);
  // I(X;Y) = H(Y) - H(Y|X) under the uniform prior on X
  const py = [0, 1].map((y) => channel.reduce((a, row) => a + row[y], 0) / m);
  const hyx = channel.reduce((a, row) => a + entropyBits(row), 0) / m;
  const channelShannonLeakage = entropyBits(py) - hyx;

  const expectedMinEntropyLeakage = functions.reduce((a, f) => a + f.probability * f.minEntropyLeakage, 0);
  const expectedShannonLeakage = functions.reduce((a, f) => a + f.probability * f.shannonLeakage, 0);
  const jointMinEntropyLeakage = log2(functions.reduce((a, f) => a + f.probability * f.classes, 0));
  const singledOutProbability = points.map((_, i) => functions.reduce((a, f) => a + (f.singledOut.includes(i) ? f.probability : 0), 0));

  return {
    points: points.map((p) => [p[0], p[1]] as const),
    functions,
    channel,
    channelMinEntropyLeakage,
    channelShannonLeakage,
    expectedMinEntropyLeakage,
    expectedShannonLeakage,
    jointMinEntropyLeakage,
    singledOutProbability,
  };
}

/** The paper's three secret inputs: whether an individual rated movies A and B. */
export const PAPER_POINTS: Point2[] = [
  [0, 1],
  [1, 0],
  [1, 1],
];

function fmtBits(x: number): string {
  // clean tiny floating residue such as 1e-17 so the text shows 0
  const v = Math.abs(x) < 1e-12 ? 0 : x;
  return `${Number(v.toFixed(6))} bit${v === 1 ? '' : 's'}`;
}

function fmtPoint(p: Point2): string {
  return `(${p[0]},${p[1]})`;
}

/** Human-readable rendering of a toy analysis (the text output of `lshdp toy`). */
export function formatToy(r: ToyResult): string {
  const lines: string[] = [];
  const pts = r.points.map(fmtPoint);
  lines.push(`Inputs: ${pts.join(', ')}   (hash h(x) = [r·x >= 0], r uniform on the circle)`);
  lines.push('');
  lines.push(`${r.functions.length} deterministic hash functions (exact, from the arrangement of hyperplanes):`);
  const w = Math.max(...pts.map((s) => s.length));
  for (const f of r.functions) {
    const map = f.outputs.map((b, i) => `${pts[i].padStart(w)} -> ${b}`).join('   ');
    const prob = f.fraction ?? f.probability.toFixed(6);
    const single = f.singledOut.length ? `   singles out ${f.singledOut.map((i) => pts[i]).join(', ')}` : '';
    lines.push(`  ${f.name.padEnd(4)} p = ${prob.padEnd(8)} ${map}   leaks ${fmtBits(f.minEntropyLeakage)}${single}`);
  }
  lines.push('');
  lines.push('Mixed channel (hyperplane kept secret): P[h(x)=1] per input');
  for (let i = 0; i < r.points.length; i++) {
    const p1 = r.channel[i][1];
    lines.push(`  ${pts[i].padStart(w)}: ${simpleFraction(p1) ?? p1}`);
  }
  lines.push(`  min-entropy leakage (uniform prior): ${fmtBits(r.channelMinEntropyLeakage)}`);
  lines.push(`  Shannon leakage (uniform prior):     ${fmtBits(r.channelShannonLeakage)}`);
  lines.push('');
  lines.push('Hyperplane released (the adversary learns which function was used):');
  lines.push(`  expected min-entropy leakage: ${fmtBits(r.expectedMinEntropyLeakage)}`);
  lines.push(`  expected Shannon leakage:     ${fmtBits(r.expectedShannonLeakage)}`);
  lines.push(`  min-entropy leakage of (h, h(x)) jointly: ${fmtBits(r.jointMinEntropyLeakage)}`);
  lines.push('  probability that an input is singled out exactly:');
  for (let i = 0; i < r.points.length; i++) {
    const p = r.singledOutProbability[i];
    lines.push(`    ${pts[i].padStart(w)}: ${simpleFraction(p) ?? p.toFixed(6)}`);
  }
  return lines.join('\n') + '\n';
}
