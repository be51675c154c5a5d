/**
 * The report's decision section: one quotable sentence per data set and target at the headline
 * cell, the others folded, the caveat; none for a folder without matched.csv.
 */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MatchedRow, MatchedTable } from '../../src/decide/choose.js';
import { MATCHED_CAVEAT } from '../../src/decide/choose.js';
import { decisionSectionBody, decisionSentence, readMatchedCsv } from '../../src/report/decisionSection.js';
import { matchedTables } from '../../src/report/matchedTable.js';
import { matchedRow } from '../helpers/matchedRows.js';

const row = (over: Partial<MatchedRow>): MatchedRow => matchedRow({ dataset: 'movielens-small', tied_with: ['laplsh'], p_worse: 0.4, ...over });

const rows = [
  row({}),
  row({ mechanism: 'laplsh', xi: 8.8, xi_interval: '[6.9, 11]', utility_loss_mean: 0.1109, retained: 0.07, release_bound: 0.014, tied_with: ['lshrr'], p_worse: null }),
  row({ mechanism: 'rappor', releasable: false, rank: 3, rank_kind: 'worse', tied_with: [], utility_loss_mean: 0.113 }),
];

describe('the decision section', () => {
  it('a sentence names the tie (lowest u* first), ξ* with its interval, retained, and the largest release bound of the tied', () => {
    const tied = [rows[0], { ...rows[1], reid1_release_bound: 0.014 }, rows[2]];
    expect(decisionSentence(tied, 'MovieLens small')).toBe(
      'MovieLens small, n 100, κ 20, reid@1 ≤ 1% (known 0.5): tied laplsh (ξ* 8.8 [6.9, 11], retains 7 ± 2%) and lshrr (ξ* 3.9 [3.1, 4.6], retains 6 ± 2%); one release: reid@1 ≤ 1.6% with 90% (normal prediction bound, the largest over the releasable entries named).',
    );
    expect(decisionSentence([row({ rank_kind: 'best', tied_with: [] })], 'a')).toMatch(
      /: best lshrr \(ξ\* 3\.9 \[3\.1, 4\.6\], retains 6 ± 2%\); one release: reid@1 ≤ 1\.6% with 90% \(normal prediction bound\)\.$/,
    );
  });

  it("two targets: every target's bound, the max over every tied releasable entry whichever target binds; † left out and said", () => {
    const both = (over: Partial<MatchedRow>) => row({ target: 'reid1 <= 0.01 and auc_adv <= 0.01', aux: 0.5, auc_adv_mean: 0.008, ...over });
    const s = decisionSentence(
      [
        // binds on auc, but its reid@1 bound (1.18%) is the highest: the review's case
        both({ mechanism: 'lshrr-exact', binding: 'auc_adv', reid1_release_bound: 0.0118, auc_adv_release_bound: 0.02 }),
        both({ mechanism: 'laplsh', reid1_release_bound: 0.0111, auc_adv_release_bound: 0.024 }),
        both({ mechanism: 'rappor-vector', releasable: false, reid1_release_bound: 0.0097, auc_adv_release_bound: 0.03 }),
      ],
      'a',
    );
    expect(s).toMatch(/; one release: reid@1 ≤ 1\.2%, auc advantage ≤ 0\.024 with 90% \(normal prediction bound, the largest over the releasable entries named; † entries left out\)\.$/);
  });

  it('all entries apart from ties; fewer than two trials: named with ξ* and u*, untested; no noise needed leads; none at ξ 0 said', () => {
    const open = row({ mechanism: 'vmf', flag: 'all', rank_kind: 'open', xi: 20, xi_interval: '[> 20]', utility_loss_mean: 0.2, retained: 0.01, retained_se: null });
    expect(decisionSentence([row({ rank_kind: 'best', tied_with: [] }), open], 'a')).toMatch(
      /: best lshrr \(.*\); unranked \(the grid ends before T\): vmf \(ξ\* ≥ 20 \[> 20\], retains ≥ 1%\); one release: reid@1 ≤ 1\.6% with 90%/,
    );
    const one = (over: Partial<MatchedRow>) =>
      row({
        trials: 1,
        rank: null,
        rank_kind: 'untested',
        tied_with: [],
        xi_interval: '',
        utility_loss_se: null,
        retained: null,
        retained_se: null,
        retained_note: 'n/a (m < 2)',
        reid1_release_bound: null,
        ...over,
      });
    expect(decisionSentence([one({ xi: 9.59, utility_loss_mean: 0.12 }), one({ mechanism: 'laplsh', xi: 11.8, utility_loss_mean: 0.118 })], 'a')).toBe(
      'a, n 100, κ 20, reid@1 ≤ 1% (known 0.5): untested (m < 2): laplsh (ξ* 11.8, u* 0.118, n/a (m < 2)) and lshrr (ξ* 9.59, u* 0.12, n/a (m < 2)).',
    );
    expect(decisionSentence([row({ clean_meets: true })], 'a')).toMatch(/\(known 0\.5\): no noise needed: clean LSH meets the target; tied lshrr/);
    const none = row({ mechanism: 'rappor', flag: 'none', rank: null, rank_kind: 'unranked', below_chance: true, xi: null, utility_loss_mean: null });
    expect(decisionSentence([none], 'a')).toMatch(/: no entry meets the target inside its ξ grid; T is below the attack's level at ξ 0 for rappor\.$/);
  });

  it('reads matched.csv back as written, the headline cell first, others folded, with the caveat; nothing without the file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lshdp-decision-'));
    expect(decisionSectionBody(dir)).toBeNull();
    const table = (n: number): MatchedTable => ({
      dataset: 'movielens-small',
      n,
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
      rows: rows.map((r) => ({ ...r, n })),
    });
    writeFileSync(join(dir, 'matched.csv'), matchedTables([table(50), table(100)], 'csv'));
    expect(readMatchedCsv(join(dir, 'matched.csv'))).toEqual([...table(50).rows, ...table(100).rows]);
    const body = decisionSectionBody(dir)!;
    const [first, folded] = body.split('<details>');
    expect(first).toContain('movielens-small, n 100, κ 20, reid@1 ≤ 1% (known 0.5): tied laplsh');
    expect(folded).toContain('movielens-small, n 50, κ 20');
    expect(body).toContain(MATCHED_CAVEAT);
    // the caveat right under the headline (first screen), before the folded cells
    expect(first).toMatch(new RegExp(`</ul>\\n<p class="note">${MATCHED_CAVEAT.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}</p>\\n$`));
  });
});
