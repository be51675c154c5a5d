/**
 * The source-language experiment of issue 53 (scripts/experiments/assemblyscript/): attribute
 * inference's ranks compiled from AssemblyScript (infer.ts → infer.wasm, committed) give the
 * hand-written WAT kernel's doubles (src/kernels/infer.wat inferRank and inferRank4), bit for bit,
 * and the JS twin's (src/evaluations/infer/ranking.ts targetMetrics), over item counts on both
 * sides of a 64-bit word and 1 to 40 neighbours (both functions). Where the AssemblyScript compiler
 * is installed (not a dependency: about 100 MB), infer.wasm is rebuilt and compared byte for byte;
 * elsewhere that test is skipped and says so.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { newInstance, type KernelMemory } from '../../src/kernels/instance.js';
import { auxView, kernelData, PREC_AT, rankScratch, targetMetrics } from '../../src/evaluations/infer/ranking.js';
import { popularity, priorOrder } from '../../src/evaluations/infer/inference.js';
import type { ItemSets } from '../../src/data/types.js';
import { makeRng } from '../../src/random/rng.js';
// @ts-expect-error: a plain .mjs script without type declarations
import { ASC_VERSION, buildInfer, findAsc, HERE } from '../../scripts/experiments/assemblyscript/build.mjs';
// @ts-expect-error: a plain .mjs script without type declarations
import { assemblyScriptInstance, prepare, sameBits } from '../../scripts/experiments/assemblyscript/ranks.mjs';

/** Random item sets (each item with its own rate), a view of the even users as the auxiliary group and the odd ones as targets, random distinct neighbours. */
function caseOf(n: number, take: number, seed: string) {
  const rng = makeRng(seed);
  const users = 2 * Math.max(take, 8) + 20;
  const rate = Array.from({ length: n }, () => rng() ** 2);
  const rowPtr = new Int32Array(users + 1);
  const cols: number[] = [];
  for (let u = 0; u < users; u++) {
    // user 1 holds every item and user 3 none: both skipped (NaN)
    for (let c = 0; c < n; c++) if (u === 1 || (u !== 3 && rng() < rate[c]!)) cols.push(c);
    rowPtr[u + 1] = cols.length;
  }
  const sets: ItemSets = { rowPtr, colIdx: Int32Array.from(cols), n };
  const aux = Int32Array.from({ length: users / 2 }, (_, i) => 2 * i);
  const targets = Int32Array.from({ length: users / 2 }, (_, i) => 2 * i + 1);
  const view = auxView(sets, priorOrder(popularity(sets, aux)), targets);
  const nearest = new Int32Array(targets.length * take);
  for (let i = 0; i < targets.length; i++)
    nearest.set(
      Array.from(aux.keys())
        .sort(() => rng() - 0.5)
        .slice(0, take),
      i * take,
    );
  const js = new Float64Array(2 * targets.length);
  const s = rankScratch(n, take);
  const voters = new Int32Array(take);
  targets.forEach((t, i) => {
    for (let q = 0; q < take; q++) voters[q] = aux[nearest[i * take + q]!]!;
    const m = targetMetrics(s, sets, view, t, i, voters, take);
    js[2 * i] = m ? m.auc : Number.NaN;
    js[2 * i + 1] = m ? m.prec10 : Number.NaN;
  });
  return { data: kernelData(sets, view, aux, targets), nearest, js };
}

const wat = newInstance<KernelMemory>();

describe.skipIf(!wat)('the inference ranks compiled from AssemblyScript (issue 53 experiment)', () => {
  it('give the WAT kernel’s and targetMetrics’ doubles, bit for bit, for every target', () => {
    let compared = 0;
    for (const n of [1, 63, 64, 65, 130, 700])
      for (const take of [1, 3, 8, 15, 16, 40]) {
        const c = caseOf(n, take, `as-${n}-${take}`);
        const w = prepare(newInstance(), c.data, c.nearest, take, PREC_AT);
        const a = prepare(assemblyScriptInstance(), c.data, c.nearest, take, PREC_AT);
        w.run();
        a.run();
        expect(sameBits(a.out(), w.out())).toBe(true);
        expect(sameBits(a.out(), c.js)).toBe(true);
        compared += c.js.filter((x) => !Number.isNaN(x)).length / 2;
        // the target holding every item and the one holding none are skipped (n = 1: every target is one of the two)
        expect([...a.out().subarray(0, 4)].every(Number.isNaN)).toBe(true);
      }
    expect(compared).toBeGreaterThan(500);
  });

  const asc = findAsc();
  const why = !asc ? 'assemblyscript is not installed' : asc.version !== ASC_VERSION ? `assemblyscript ${asc.version} is installed, infer.wasm is ${ASC_VERSION}'s` : '';
  if (why) process.stdout.write(`tests/kernels/inferAssemblyScript: rebuild of infer.wasm skipped: ${why} (npm install --no-save assemblyscript@${ASC_VERSION})\n`);
  it.skipIf(why !== '')(
    `infer.wasm is the build of infer.ts by assemblyscript ${ASC_VERSION} (rebuilt byte for byte)`,
    () => {
      const dir = mkdtempSync(join(tmpdir(), 'lshdp-asc-'));
      try {
        buildInfer(asc, join(dir, 'infer.wasm'));
        expect(readFileSync(join(dir, 'infer.wasm')).equals(readFileSync(join(HERE, 'infer.wasm')))).toBe(true);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    120_000,
  );
});
