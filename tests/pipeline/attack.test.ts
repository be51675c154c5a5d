import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { mergeShards } from '../../src/pipeline/merge.js';
import { readEvaluationValues } from '../../src/machinery/readFolder.js';
import type { AttackTrialValue } from '../../src/experiment/trialValues.js';
import { folderStatus } from '../../src/machinery/status.js';
import { ATTACK_HEADER } from '../../src/experiment/columns.js';
import { filesOf, runQuiet, scratchConfig } from '../helpers/pipeline.js';

/** A small real grid (synthetic data, in this thread): 2 trial cells per κ, every kind of release. */
const GRID = `name: att
seed: 3
datasets:
  - { name: a, format: synthetic, preset: small }
dims: [30]
queries: 20
k: [1, 5]
kappa: [8, 12]
trials: 2
privacy: { d: 0.1, delta: 0.01, xi: [0, 5] }
mechanisms: [exact, lsh, lshrr, rappor, rappor-vector, vmf]
`;

const scratch = (text: string) => scratchConfig(text, 'att.yaml');
const run = runQuiet;
const files = filesOf;

describe('the attack in a run', () => {
  it('added to a finished grid computes only the attack, leaving cells/ and utility.csv as they are; grows by known and xi', async () => {
    const { dir, config } = scratch(GRID);
    const out = join(dir, 'out');
    await run(config, out);
    const before = files(join(out, 'cells'));
    const utility = readFileSync(join(out, 'utility.csv'), 'utf8');
    expect(existsSync(join(out, 'attack.csv'))).toBe(false);
    // 4 trial cells × (lsh + 4 mechanisms × 2 ξ) = 36 results; at known 0.5: 36 entries
    writeFileSync(config, `${GRID}attack: { known: [0.5] }\n`);
    const a = await run(config, out);
    expect(a.computed).toBe(36);
    expect(files(join(out, 'cells'))).toEqual(before);
    expect(readFileSync(join(out, 'utility.csv'), 'utf8')).toBe(utility);
    const csv = readFileSync(join(out, 'attack.csv'), 'utf8').trim().split('\n');
    expect(csv[0]).toBe(`${ATTACK_HEADER},concentration,concentration_metric`);
    expect(csv).toHaveLength(1 + 2 * 9);
    // a new known computes only its entries; then a new ξ its results and their attack
    writeFileSync(config, `${GRID}attack: { known: [0.5, 1] }\n`);
    const b = await run(config, out);
    expect(b.computed).toBe(36);
    writeFileSync(config, `${GRID.replace('xi: [0, 5]', 'xi: [0, 5, 20]')}attack: { known: [0.5, 1] }\n`);
    const c = await run(config, out);
    expect(c.computed).toBe(4 * 4 + 4 * 4 * 2);
    // the values: readAttackValues in attack.csv order, one per trial
    const { values } = readEvaluationValues<AttackTrialValue>(out, 'attack');
    const rows = readFileSync(join(out, 'attack.csv'), 'utf8').trim().split('\n').slice(1);
    expect(values).toHaveLength(2 * rows.length);
    rows.forEach((line, i) => {
      const cells = line.split(',');
      const [v0, v1] = [values[2 * i]!, values[2 * i + 1]!];
      expect([v0.dataset, String(v0.n), String(v0.kappa), v0.mechanism, String(v0.xi ?? ''), String(v0.known)]).toEqual([cells[0], cells[1], cells[2], cells[3], cells[6], cells[7]]);
      expect(Number(cells[8])).toBeCloseTo((v0.reid1 + v1.reid1) / 2, 14);
      expect([v0.trial, v1.trial]).toEqual([0, 1]);
    });
    // lsh at known = 1 re-identifies at least as often as chance; every value is a probability
    for (const v of values) {
      expect(v.reid1).toBeGreaterThanOrEqual(0);
      expect(v.reid10).toBeLessThanOrEqual(1);
      expect(v.reid10).toBeGreaterThanOrEqual(v.reid1);
    }
    const st = folderStatus(out);
    expect(st.own).toEqual({ attack: { valid: 4 * 13 * 2, expected: 4 * 13 * 2 } });
    expect(st.lines.join('\n')).toContain('attack: known [0.5, 1], targets 5,000; 104 of 104 entries present and valid');
    // a run that changes nothing reuses everything, and the same bytes come back
    const csvText = readFileSync(join(out, 'attack.csv'), 'utf8');
    const d = await run(config, out);
    expect(d.computed).toBe(0);
    expect(readFileSync(join(out, 'attack.csv'), 'utf8')).toBe(csvText);
    // resumes: a lost attack file is computed again, alone
    const one = readdirSync(join(out, 'attack')).find((f) => f.endsWith('.json'))!;
    const text = readFileSync(join(out, 'attack', one), 'utf8');
    writeFileSync(join(out, 'attack', one), text.slice(0, 40));
    const e = await run(config, out);
    expect(e.computed).toBe(13 * 2);
    const noMs = (t: string) => t.replace(/"ms":\d+/g, '"ms":0');
    expect(noMs(readFileSync(join(out, 'attack', one), 'utf8'))).toBe(noMs(text));
    expect(readFileSync(join(out, 'attack.csv'), 'utf8')).toBe(csvText);
    // a smaller attack reuses what it needs; status counts the rest as unused and --prune removes it
    writeFileSync(config, `${GRID.replace('xi: [0, 5]', 'xi: [0, 5, 20]')}attack: { known: [1] }\n`);
    expect((await run(config, out)).computed).toBe(0);
    expect(folderStatus(out)).toMatchObject({ own: { attack: { valid: 4 * 13, expected: 4 * 13 } }, unused: 4 * 13 });
    expect(folderStatus(out, { prune: true }).unused).toBe(4 * 13);
    expect(folderStatus(out).unused).toBe(0);
  });

  it('shards merged give the unsharded bytes; a config without attack writes no attack file', async () => {
    const { dir, config } = scratch(`${GRID}attack: { known: [0.5, 1], targets: 25 }\n`);
    await run(config, join(dir, 'full'));
    const shards = [1, 2].map((i) => join(dir, `s${i}`));
    for (let i = 0; i < 2; i++) await run(config, shards[i]!, { shard: { index: i + 1, count: 2 } });
    expect(existsSync(join(shards[0]!, 'attack.csv'))).toBe(false);
    await mergeShards(shards, { out: join(dir, 'merged'), report: false, quiet: true });
    for (const f of ['attack.csv', 'utility.csv']) expect(readFileSync(join(dir, 'merged', f), 'utf8')).toBe(readFileSync(join(dir, 'full', f), 'utf8'));
    // the records are the same but for compute times (provenance, as in cells/)
    const noMs = (m: Map<string, string>) => new Map([...m].map(([k, v]) => [k, v.replace(/"ms":\d+/g, '"ms":0')]));
    expect(noMs(files(join(dir, 'merged', 'attack')))).toEqual(noMs(files(join(dir, 'full', 'attack'))));
    // more users than attack.targets: 25 sampled targets ranked against every user's code
    const row = readFileSync(join(dir, 'full', 'attack.csv'), 'utf8')
      .trim()
      .split('\n')[1]!
      .split(',');
    expect(Number(row[13])).toBeGreaterThan(25);
    expect(row[14]).toBe('25');
    const plain = scratch(GRID);
    await run(plain.config, join(plain.dir, 'out'));
    expect(existsSync(join(plain.dir, 'out', 'attack'))).toBe(false);
    expect(existsSync(join(plain.dir, 'out', 'attack.csv'))).toBe(false);
    expect(() => readEvaluationValues(join(plain.dir, 'out'), 'attack')).toThrow(/no linkage attack values \(its config has no attack block/);
  });
  it('with recommend, attacks the training vectors: its entries sit in cells keyed by the split, and attack.csv, recommend.csv and the frontier on NDCG are written', async () => {
    const { dir, config } = scratch(`${GRID}recommend: { split: random, holdout: 1, top: [5] }\nattack: { known: [0.5] }\n`);
    const out = join(dir, 'out');
    await run(config, out);
    expect(readdirSync(join(out, 'attack')).every((f) => f.endsWith('_rec-random-h1.json'))).toBe(true);
    expect(readdirSync(join(out, 'attack'))).toHaveLength(4);
    const csv = readFileSync(join(out, 'attack.csv'), 'utf8').trim().split('\n');
    expect(csv.length).toBeGreaterThan(1);
    expect(existsSync(join(out, 'recommend.csv'))).toBe(true);
    expect(readEvaluationValues<AttackTrialValue>(out, 'attack').values.length).toBe((csv.length - 1) * 2);
  });
});
