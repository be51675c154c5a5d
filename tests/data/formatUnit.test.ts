/**
 * A data format is one unit: a tiny format (tests/fixtures/formats/jsonl-visits.ts, written as a
 * file of src/data/formats/ is) added to the list of formats, as its line in
 * src/data/formats/index.ts would add it, is read end to end by `lshdp run` (in process, so the
 * built CLI's list is the one it joins), listed by `lshdp formats`, detected by `data inspect`,
 * and its key enters the config schema and its checks; nothing else names it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT, STACK_RE } from '../helpers/cli.js';
import { runInProc, scratch } from '../helpers/experiment.js';
import type { FormatUnit } from '../../src/data/formats/unit.js';
import { jsonlVisits } from '../fixtures/formats/jsonl-visits.js';

const USERS = 30;
const VENUES = 12;

/** Visits of user u: venues (u·k + k²) mod VENUES for k = 1..(u mod 5) + 2, each once or twice. */
function visits(): { lines: string[]; pairs: Set<string> } {
  const lines: string[] = [];
  const pairs = new Set<string>();
  for (let u = 0; u < USERS; u++) {
    for (let k = 1; k <= (u % 5) + 2; k++) {
      const v = (u * k + k * k) % VENUES;
      for (let r = 0; r < 1 + (k % 2); r++) lines.push(JSON.stringify({ user: `u${u}`, venue: `v${v}` }));
      pairs.add(`u${u} v${v}`);
    }
  }
  return { lines, pairs };
}

const CONFIG = `name: visits
seed: 3
datasets:
  - { name: jv, format: jsonl-visits, path: visits.jsonl, item_key: venue }
dims: [${VENUES}]
queries: 10
k: [1, 3]
kappa: [8]
trials: 2
privacy: { d: 0.1, delta: 0.01, xi: [0, 4] }
mechanisms: [exact, lsh, lshrr]
`;

let remove: () => void = () => {};

beforeAll(async () => {
  const formats = (await import(pathToFileURL(join(ROOT, 'dist', 'data', 'formats', 'index.js')).href)) as { addFormatForTests(u: FormatUnit): () => void };
  remove = formats.addFormatForTests(jsonlVisits);
});
afterAll(() => remove());

describe('a format added as one unit', () => {
  it('runs end to end through lshdp run, its interactions read by its reader', async () => {
    const { dir } = scratch(CONFIG, 'visits.yaml');
    const { lines, pairs } = visits();
    writeFileSync(join(dir, 'visits.jsonl'), `${lines.join('\n')}\n`);
    const r = await runInProc(dir, ['run', 'visits.yaml', '--out', 'r', '--threads', '1', '--no-report', '--no-cache']);
    expect(r.stderr).not.toMatch(STACK_RE);
    expect(r.status).toBe(0);
    const [summary] = JSON.parse(readFileSync(join(dir, 'r', 'datasets.json'), 'utf8'));
    // the counts the reader must give: every line a row, repeated (user, venue) pairs combined
    const venues = new Set([...pairs].map((p) => p.split(' ')[1])).size;
    expect(summary).toMatchObject({ name: 'jv', format: 'jsonl-visits', rows_read: lines.length, users: USERS, items: venues, interactions: pairs.size, center: 'none' });
    const utility = readFileSync(join(dir, 'r', 'utility.csv'), 'utf8')
      .trimEnd()
      .split('\n');
    // per k (2): 1 exact row + lsh + lshrr at each ξ (lsh's rows do not depend on ξ: 1 per k)
    expect(utility.slice(1).map((l) => l.split(',')[0])).toEqual(Array(utility.length - 1).fill('jv'));
    expect(utility.length).toBeGreaterThan(2);
  });

  it('is listed, detected, and its key checked like a built-in format’s', async () => {
    const { dir } = scratch(CONFIG, 'visits.yaml');
    writeFileSync(join(dir, 'visits.jsonl'), `${visits().lines.join('\n')}\n`);
    const list = await runInProc(dir, ['formats']);
    expect(list.stdout).toMatch(/^jsonl-visits +JSON Lines, one visit per line/m);
    const inspect = await runInProc(dir, ['data', 'inspect', 'visits.jsonl', '--item-key', 'venue', '--dims', '5', '--no-cache', '--json']);
    expect(inspect.stderr).toContain('lshdp: format jsonl-visits, detected from a JSON object on the first line');
    expect(inspect.status).toBe(0);
    expect(JSON.parse(inspect.stdout).summary).toMatchObject({ format: 'jsonl-visits', users: USERS });
    writeFileSync(join(dir, 'bad.yaml'), CONFIG.replace('format: jsonl-visits, path: visits.jsonl, item_key: venue', 'format: synthetic, preset: small, item_key: venue'));
    const bad = await runInProc(dir, ['run', 'bad.yaml', '--out', 'b']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toBe('lshdp: error: bad.yaml: datasets[0].item_key: only applies to format jsonl-visits (this data set is synthetic)\n');
  });
});
