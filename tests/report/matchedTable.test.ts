/**
 * The matched tables' layout: matched.csv's columns are docs/OUTPUTS.md's, every markdown table
 * carries the caveat, `all` prints "≥" retained, an open interval prints "> ξ_J", and an entry
 * that cannot be released carries the † with its footnote.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../helpers/cli.js';
import { intervalText, MATCHED_CAVEAT, type MatchedTable } from '../../src/decide/choose.js';
import { MATCHED_COLUMNS, matchedTables } from '../../src/report/matchedTable.js';
import { UNRELEASABLE_NOTE } from '../../src/mechanisms/releasable.js';
import { matchedRow } from '../helpers/matchedRows.js';

/** The first cells of the table under "## `matched.csv`" in docs/OUTPUTS.md. */
function documented(): string[] {
  const lines = readFileSync(join(ROOT, 'docs', 'OUTPUTS.md'), 'utf8').split('\n');
  let i = lines.indexOf('## `matched.csv`');
  while (!lines[i].startsWith('| column')) i++;
  const out: string[] = [];
  for (i += 2; lines[i]?.startsWith('|'); i++) out.push(/^\| `([^`]+)`/.exec(lines[i])![1]);
  return out;
}

const row = matchedRow;

describe('matched tables', () => {
  it("matched.csv's columns are docs/OUTPUTS.md's, in order", () => {
    expect([...MATCHED_COLUMNS]).toEqual(documented());
    const csv = matchedTables([], 'csv');
    expect(csv.split('\n')[0]).toBe(MATCHED_COLUMNS.join(','));
  });

  it('markdown: the caveat under every table; all prints ≥ and is unranked; the ranking note names the smallest u*; an open interval; the release marker and its note', () => {
    const all = row({
      mechanism: 'rappor-vector',
      xi: 20,
      xi_low: null,
      xi_high: null,
      xi_interval: intervalText(Infinity, Infinity, [0, 20], String),
      flag: 'all',
      retained: 0.03,
      releasable: false,
      rank_kind: 'open',
      tied_with: ['lshrr'],
      utility_loss_mean: 0.2,
    });
    const table: MatchedTable = {
      dataset: 'a',
      n: 100,
      kappa: 20,
      k: 10,
      known: 0.5,
      aux: null,
      target: 'reid1 <= 0.01',
      trials: 10,
      alpha: 0.05,
      clean_meets: false,
      below_chance: false,
      at_zero: [],
      skipped: [],
      ndcg: null,
      rows: [row({}), all],
    };
    const md = matchedTables([table, { ...table, n: 500 }], 'md');
    expect(md.split(MATCHED_CAVEAT)).toHaveLength(3);
    expect(md).toContain('| lshrr | 3.9 [3.1, 4.6] | reid@1 1% | ≤ 1.6% (90%, normal); max 1.5% (91%) | 0.11100 ± 0.00040 | 6 ± 2% | 8.1 | interior | tied with rappor-vector |');
    expect(md).toContain('| all | unranked: the grid ends before T |');
    expect(md).toContain("Smallest observed u*: lshrr. Paired two-sided t tests of u* between every two entries, Holm over the table's pairs at α 0.05");
    expect(md).toContain('| rappor-vector † | 20 [> 20] |');
    expect(md).toContain('≥ 3 ± 2%');
    expect(md).toContain(UNRELEASABLE_NOTE);
    expect(intervalText(-Infinity, 4, [0.5, 20], String)).toBe('[< 0.5, 4]');
    // with recommendations: NDCG@N at ξ* after u*, the baselines under the table
    const rec = matchedTables([{ ...table, ndcg: { top: 10, pop: 0.126, exact: 0.17 }, rows: [row({ ndcg_mean: 0.0912 })] }], 'md');
    expect(rec).toContain('| u* ± SE | NDCG@10 at ξ* | retained |');
    expect(rec).toContain('| 0.11100 ± 0.00040 | 0.0912 | 6 ± 2% |');
    expect(rec).toContain('NDCG@10 of the baselines: pop 0.126, exact neighbours 0.17.');
    expect(intervalText(-Infinity, 4, [0, 20], String)).toBe('[none, 4]');
    expect(intervalText(2, Infinity, [0.5, 20], String)).toBe('[2, > 20]');
    // two targets: both bounds in the release column, whichever binds; none at ξ 0 with its measured level
    const two = matchedTables(
      [
        {
          ...table,
          target: 'reid1 <= 0.01 and auc_adv <= 0.01',
          below_chance: true,
          at_zero: [{ mechanism: 'rappor', name: 'auc_adv', value: 0.0119 }],
          rows: [row({ target: 'reid1 <= 0.01 and auc_adv <= 0.01', binding: 'auc_adv', auc_adv_mean: 0.01, auc_adv_release_bound: 0.024, auc_adv_release_max: 0.02 })],
        },
      ],
      'md',
    );
    expect(two).toContain('| reid@1 ≤ 1.6%, auc adv ≤ 0.024 (90%, normal); max 1.5%, 0.02 (91%) |');
    // LaTeX: the caveat typeset under the table, not in a % comment
    const tex = matchedTables([table], 'latex');
    expect(tex).toMatch(/\\end\{tabular\}\n\\par\\smallskip\\noindent\{\\footnotesize a, n 100, κ 20 .*every mechanism but LSHRR a matched/);
    expect(tex).not.toMatch(/^%/m);
    expect(two).toContain("T is below this attack's level at ξ = 0 (its chance level, up to noise) for the entries flagged none there; measured at ξ 0: rappor auc adv 0.012.");
  });
});
