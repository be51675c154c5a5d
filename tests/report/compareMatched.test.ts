/**
 * `lshdp compare` on matched.csv (src/report/compareMatched.ts): constructed folders whose rows
 * differ in one field each (tests/helpers/matchedRows.ts), and one real pair of small runs with a
 * `decide:` block.
 */
import { describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Papa from 'papaparse';
import type { MatchedRow } from '../../src/decide/choose.js';
import { compareFolders, oneSidedFiles, runsAgree, type RunFiles } from '../../src/report/compare.js';
import { formatCompare } from '../../src/report/compareFormat.js';
import { intervalOf, readMatchedOf, type MatchedCompared } from '../../src/report/compareMatched.js';
import { MATCHED_COLUMNS } from '../../src/report/matchedTable.js';
import { UserError } from '../../src/util/errors.js';
import { matchedRow } from '../helpers/matchedRows.js';
import { runInProc } from '../helpers/experiment.js';
import { runQuiet, scratchConfig } from '../helpers/pipeline.js';

const csvOf = (rows: MatchedRow[]) =>
  `${Papa.unparse({ fields: [...MATCHED_COLUMNS], data: rows.map((r) => MATCHED_COLUMNS.map((c) => (r[c] === null ? '' : Array.isArray(r[c]) ? (r[c] as string[]).join(';') : String(r[c])))) }, { newline: '\n' })}\n`;

/** A folder holding only matched.csv with these rows, read back as compare reads it. */
function folder(rows: MatchedRow[]): { dir: string; rows: MatchedCompared[] } {
  const dir = mkdtempSync(join(tmpdir(), 'lshdp-cmpm-'));
  writeFileSync(join(dir, 'matched.csv'), csvOf(rows));
  return { dir, rows: readMatchedOf(dir)!.rows };
}

const TWO = [matchedRow({}), matchedRow({ mechanism: 'rappor-vector', utility_loss_mean: 0.1112, tied_with: ['lshrr'] })];
const runOf = (rows: MatchedRow[]): RunFiles => ({ utility: [], matched: folder(rows).rows });
const compare = (a: MatchedRow[], b: MatchedRow[]) => compareFolders(runOf(a), runOf(b), { threshold: 3 });
const matchedRows = (a: MatchedRow[], b: MatchedRow[]) => compare(a, b).rows.filter((r) => r.metric === 'matched');

describe('compare on matched.csv: constructed folders', () => {
  it('the same file twice: every row identical, the runs agree', () => {
    const res = compare(TWO, TWO);
    expect(res.rows.map((r) => [r.mechanism, r.status])).toEqual([
      ['lshrr', 'same'],
      ['rappor-vector', 'same'],
    ]);
    expect(res.files).toEqual({ 'utility.csv': 'both', 'matched.csv': 'both' });
    expect(runsAgree(res)).toBe(true);
  });

  it('a changed rank kind or flag is flagged, with what changed in the note', () => {
    const b = [
      matchedRow({ flag: 'all', rank_kind: 'best', tied_with: [] }),
      matchedRow({ mechanism: 'rappor-vector', utility_loss_mean: 0.1112, rank: 2, rank_kind: 'worse', tied_with: [], p_worse: 0.01 }),
    ];
    const [lshrr, rappor] = matchedRows(TWO, b);
    expect(lshrr.status).toBe('flagged');
    expect(lshrr.note).toBe('flag interior → all; rank tied → best');
    expect(rappor.note).toBe('rank tied → worse 2');
    expect([rappor.a_rank, rappor.b_rank]).toEqual(['tied', 'worse 2']);
    expect(runsAgree(compare(TWO, b))).toBe(false);
  });

  it('ξ* intervals that do not overlap are flagged; touching or overlapping ones are not', () => {
    const moved = (lo: number, hi: number) => [matchedRow({ xi: (lo + hi) / 2, xi_low: lo, xi_high: hi, xi_interval: `[${lo}, ${hi}]` }), TWO[1]];
    // A's interval is [3.1, 4.6]
    expect(matchedRows(TWO, moved(4.7, 6))[0]).toMatchObject({ status: 'flagged', note: 'ξ* intervals [3.1, 4.6] and [4.7, 6] do not overlap' });
    expect(matchedRows(TWO, moved(1, 3))[0].note).toBe('ξ* intervals [3.1, 4.6] and [1, 3] do not overlap');
    expect(matchedRows(TWO, moved(4.6, 6))[0].status).toBe('within');
    expect(matchedRows(TWO, moved(2, 3.5))[0].status).toBe('within');
  });

  it("an open side reads as the grid's edge: [3.1, > 20] overlaps [> 20], [< 1] does not overlap [3.1, 4.6]", () => {
    const r = (o: Partial<MatchedRow>) => folder([matchedRow(o)]).rows[0];
    expect(intervalOf(r({ xi_high: null, xi_interval: '[3.1, > 20]' }))).toEqual([3.1, Number.POSITIVE_INFINITY]);
    expect(intervalOf(r({ xi: 20, xi_low: null, xi_high: null, xi_interval: '[> 20]', flag: 'all' }))).toEqual([20, Number.POSITIVE_INFINITY]);
    expect(intervalOf(r({ xi: 0.5, xi_low: null, xi_high: null, xi_interval: '[< 1]' }))).toEqual([Number.NEGATIVE_INFINITY, 1]);
    expect(intervalOf(r({ xi_low: null, xi_interval: '[none, 4.6]' }))).toEqual([Number.NEGATIVE_INFINITY, 4.6]);
    expect(intervalOf(r({ xi_low: null, xi_high: null, xi_interval: '' }))).toBeNull();
    const open = [matchedRow({ xi: 19, xi_high: null, xi_interval: '[3.1, > 20]' })];
    const beyond = [matchedRow({ xi: 20, flag: 'interior', xi_low: null, xi_high: null, xi_interval: '[> 20]' })];
    expect(matchedRows(open, beyond)[0].status).toBe('within');
    const below = [matchedRow({ xi: 0.5, xi_low: null, xi_high: null, xi_interval: '[< 1]' })];
    expect(matchedRows(TWO.slice(0, 1), below)[0].note).toBe('ξ* intervals [3.1, 4.6] and [< 1] do not overlap');
  });

  it("u*'s z is (b − a)/√(se_a² + se_b²) and flags beyond the threshold", () => {
    // 0.0012 / √(0.0004² + 0.0003²) = 0.0012 / 0.0005 = 2.4: within; 0.002 / 0.0005 = 4: flagged
    const near = matchedRows(TWO, [matchedRow({ utility_loss_mean: 0.1122, utility_loss_se: 0.0003 }), TWO[1]])[0];
    expect(near.z).toBeCloseTo(2.4, 9);
    expect(near.status).toBe('within');
    const far = matchedRows(TWO, [matchedRow({ utility_loss_mean: 0.113, utility_loss_se: 0.0003 }), TWO[1]])[0];
    expect(far.z).toBeCloseTo(4, 9);
    expect(far).toMatchObject({ status: 'flagged', note: 'u* |z| > 3' });
  });

  it('a changed known share is a changed setting: said once, the row flagged and left out of the listing unless --all', () => {
    const b = TWO.map((r) => ({ ...r, known: 0.25 }));
    const res = compare(TWO, b);
    expect(res.rows.every((r) => r.status === 'flagged' && r.note === 'setting changed: known 0.5 → 0.25')).toBe(true);
    expect(res.settings).toEqual([{ file: 'matched.csv', setting: 'known', from: 0.5, to: 0.25, rows: 2 }]);
    const md = formatCompare(res, 'md');
    expect(md).toContain('- known: 0.5 → 0.25 (2 pairs in matched.csv)');
    expect(md).toContain('No differences but the rows of the changed settings (above).');
    expect(formatCompare(res, 'md', true)).toContain('| a | 100 | 20 | 10 | reid1 ≤ 0.01 (known 0.5) | lshrr |');
  });

  it('rows in one run only are only_a / only_b; a matched.csv in one run only is one line and changes nothing', () => {
    const res = compare(TWO, [TWO[1], matchedRow({ mechanism: 'laplsh' })]);
    expect(res.rows.map((r) => [r.mechanism, r.status])).toEqual([
      ['lshrr', 'only_a'],
      ['rappor-vector', 'same'],
      ['laplsh', 'only_b'],
    ]);
    const one = compareFolders({ utility: [], matched: null }, runOf(TWO));
    expect(one.files).toEqual({ 'utility.csv': 'both', 'matched.csv': 'only_b' });
    expect(one.rows).toEqual([]);
    expect(runsAgree(one)).toBe(true);
    expect(oneSidedFiles(one)).toEqual(['matched.csv: in run B only; not compared']);
    expect(formatCompare(one, 'md')).toContain('matched.csv: in run B only; not compared.\n');
    // asked for other metrics only, matched.csv takes no part
    expect(compareFolders(runOf(TWO), runOf([]), { metrics: ['utility'] }).files).toBeUndefined();
  });

  it('md prints both runs side by side: ξ* [90%], u* ± SE, z, retained and rank', () => {
    const b = [matchedRow({ rank_kind: 'best', tied_with: [] }), matchedRow({ mechanism: 'rappor-vector', utility_loss_mean: 0.1112, rank: 2, rank_kind: 'worse', tied_with: [], p_worse: 0.01 })];
    const md = formatCompare(compare(TWO, b), 'md');
    expect(md).toContain('### matched.csv\n\n| dataset | n | κ | k | target | entry | A ξ* [90%] | B ξ* [90%] | A u* ± SE | B u* ± SE | z | A retained | B retained | A rank | B rank | status |');
    expect(md).toContain(
      '| a | 100 | 20 | 10 | reid1 ≤ 0.01 (known 0.5) | lshrr | 3.9 [3.1, 4.6] | 3.9 [3.1, 4.6] | 0.11100 ± 0.00040 | 0.11100 ± 0.00040 | 0.00 | 6% | 6% | tied | best | **flagged** (rank tied → best) |',
    );
    expect(md).toContain('2 (row, metric) pairs: 0 identical, 0 within |z| ≤ 3, 2 flagged, 0 only in A, 0 only in B');
  });

  it('a malformed matched.csv is a one-line error naming the file, line and column', () => {
    const { dir } = folder(TWO);
    const file = join(dir, 'matched.csv');
    writeFileSync(file, readFileSync(file, 'utf8').replace(',0.111,', ',abc,'));
    expect(() => readMatchedOf(dir)).toThrow(UserError);
    expect(() => readMatchedOf(dir)).toThrow(/matched\.csv:2: column utility_loss_mean: "abc" is not a number/);
    writeFileSync(file, 'dataset,n\na,1\n');
    expect(() => readMatchedOf(dir)).toThrow(/matched\.csv:1: missing column\(s\) kappa, k, known/);
    rmSync(dir, { recursive: true, force: true });
    expect(readMatchedOf(dir)).toBeNull();
  });
});

describe('compare on matched.csv: a real pair of small runs', () => {
  const config = (seed: number) => `name: pair
seed: ${seed}
datasets:
  - { name: a, format: synthetic, preset: small }
dims: [30]
queries: 0
k: [10]
kappa: [12]
trials: 4
privacy: { d: 0.1, delta: 0.01, xi: [0, 2, 5, 10, 20] }
mechanisms: [exact, lsh, lshrr, laplsh]
attack: { known: [0.5], targets: 40 }
decide: { reid1: [0.02, 0.05] }
`;

  it('every row of both matched.csv is paired on (data set, n, κ, k, target, entry); a run against itself agrees', async () => {
    const { dir, config: file1 } = scratchConfig(config(1));
    const file2 = join(dir, 'two.yaml');
    writeFileSync(file2, config(2));
    const [a, b] = [join(dir, 'a'), join(dir, 'b')];
    await runQuiet(file1, a);
    await runQuiet(file2, b);
    const rowsOf = (d: string) => readMatchedOf(d)!.rows;
    expect(rowsOf(a).length).toBe(4);
    const json = await runInProc(dir, ['compare', a, b, '--metric', 'matched', '--format', 'json', '--all']);
    const out = JSON.parse(json.stdout) as { rows: Record<string, unknown>[]; files: unknown };
    expect(out.files).toEqual({ 'matched.csv': 'both' });
    expect(out.rows.map((r) => [r.target, r.mechanism, r.a_xi, r.b_xi, r.a_mean, r.b_mean])).toEqual(
      rowsOf(a).map((r, i) => [r.target, r.mechanism, r.xi, rowsOf(b)[i].xi, r.utility_loss_mean, rowsOf(b)[i].utility_loss_mean]),
    );
    expect(out.rows.every((r) => r.status !== 'only_a' && r.status !== 'only_b')).toBe(true);
    // exit 3 exactly when some row is flagged
    expect(json.status).toBe(out.rows.some((r) => r.status === 'flagged') ? 3 : 0);
    const self = await runInProc(dir, ['compare', a, a]);
    expect(self.status).toBe(0);
    expect(self.stdout).toContain('### matched.csv\n\nNo differences: every compared row is identical.');
    // without matched.csv in B: one line, and B's other files compared as before
    mkdirSync(join(dir, 'c'));
    for (const f of ['utility.csv', 'attack.csv', 'lshdp-results.json', 'config.yaml']) writeFileSync(join(dir, 'c', f), readFileSync(join(a, f)));
    const one = await runInProc(dir, ['compare', a, join(dir, 'c')]);
    expect(one.stdout).toContain('matched.csv: in run A only; not compared.');
    expect(one.status).toBe(0);
    rmSync(dir, { recursive: true, force: true });
  }, 60_000);
});
