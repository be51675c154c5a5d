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
    expect(decisionSentence(rows, 'MovieLens small')).toBe(
      'MovieLens small, n 100, κ 20, reid@1 ≤ 1% (known 0.5): tied laplsh (ξ* 8.8 [6.9, 11], retains 7 ± 2%) and lshrr (ξ* 3.9 [3.1, 4.6], retains 6 ± 2%); one release: reid@1 ≤ 1.6% with 90% (normal prediction bound, the largest of these).',
    );
    // two targets: each binding target's largest bound, in its own unit
    const both = rows
      .slice(0, 2)
      .map((r, i) => ({ ...r, target: 'reid1 <= 0.01 and auc_adv <= 0.01', aux: 0.5, auc_adv_mean: 0.01, ...(i === 1 ? { binding: 'auc_adv' as const, release_bound: 0.024 } : {}) }));
    expect(decisionSentence(both, 'a')).toMatch(/and auc advantage over null ≤ 0\.01 \(aux 0\.5\): tied .*; one release: reid@1 ≤ 1\.6%, auc advantage ≤ 0\.024 with 90%/);
    expect(decisionSentence([row({ rank_kind: 'best', tied_with: [] })], 'a')).toMatch(
      /: best lshrr \(ξ\* 3\.9 \[3\.1, 4\.6\], retains 6 ± 2%\); one release: reid@1 ≤ 1\.6% with 90% \(normal prediction bound\)\.$/,
    );
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
  });
});
