import { appendFileSync, cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { UtilityRow } from '../../src/report/read.js';
import { ROOT } from '../helpers/cli.js';

/** Labels of a config like the shared ones plus two more accountants: 7 drawn series, and exact. */
export const BIG_LABELS: [label: string, base: string, accountant: string | null][] = [
  ['lsh', 'lsh', null],
  ['lshrr', 'lshrr', 'paper'],
  ['lshrr-exact', 'lshrr', 'exact'],
  ['lshrr-theorem', 'lshrr', 'theorem'],
  ['laplsh', 'laplsh', null],
  ['rappor', 'rappor', null],
  ['rappor-vector', 'rappor-vector', null],
];

/**
 * Utility rows of a shipped-config-sized grid (n 50/100/500/1000, κ 10/20/50, k 1/5/10, ξ 0–20,
 * the labels above): made-up plausible numbers, for layout tests only.
 */
export function bigGrid(labels = BIG_LABELS): UtilityRow[] {
  const rows: UtilityRow[] = [];
  const common = { dataset: 'big', queries: 100, trials: 10, fallback: null, epsilon_bit: null, epsilon_lap: null, epsilon_ldp: null };
  for (const n of [50, 100, 500, 1000]) {
    for (const k of [1, 5, 10])
      rows.push({ ...common, n, kappa: null, k, mechanism: 'exact', base: 'exact', accountant: null, xi: null, trials: 1, utility_loss_mean: 0, utility_loss_se: 0, recall_mean: 1, recall_se: 0 });
    for (const kappa of [10, 20, 50]) {
      for (const k of [1, 5, 10]) {
        for (const [label, base, accountant] of labels) {
          const lsh = 0.1 - 0.001 * kappa;
          const xis: (number | null)[] = base === 'lsh' ? [null] : [0, 0.5, 1, 2, 5, 10, 20];
          for (const xi of xis) {
            const loss = xi === null ? lsh : lsh + (0.3 - lsh) * Math.exp(-xi / (2 + label.length / 4));
            rows.push({ ...common, n, kappa, k, mechanism: label, base, accountant, xi, utility_loss_mean: loss, utility_loss_se: 0.003, recall_mean: 1 - loss, recall_se: 0.01 });
          }
        }
      }
    }
  }
  return rows;
}

/** utility.csv's columns, in its order. */
const UTILITY_HEADER = 'dataset,n,kappa,k,mechanism,base,accountant,xi,epsilon_bit,epsilon_lap,epsilon_ldp,fallback,trials,queries,utility_loss_mean,utility_loss_se,recall_mean,recall_se';

/**
 * A results folder as a run with recommend and attack writes it (tests/fixtures/results/small with
 * tests/fixtures/results/attack's recommend.csv and attack.csv) whose utility.csv also has the rows
 * of a shipped-config-sized grid (data set `big`, bigGrid() with one more label, long like a
 * plugin's): a utility table of about 1,800 rows and Fig. 2s of 12 panels wider than a 1280-px
 * window at their natural size, as the shared configs' are. For the report's layout and size tests.
 */
export function bigResultsFolder(): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'lshdp-big-report-')), 'big');
  cpSync(join(ROOT, 'tests/fixtures/results/small'), dir, { recursive: true });
  for (const f of ['attack.csv', 'recommend.csv']) cpSync(join(ROOT, 'tests/fixtures/results/attack', f), join(dir, f));
  const cell = (v: unknown) => (v === null || v === undefined ? '' : String(v));
  const lines = bigGrid([...BIG_LABELS, ['purkayastha-directional-baseline', 'purkayastha', null]]).map((r) =>
    UTILITY_HEADER.split(',')
      .map((c) => cell((r as unknown as Record<string, unknown>)[c]))
      .join(','),
  );
  appendFileSync(join(dir, 'utility.csv'), lines.join('\n') + '\n');
  return dir;
}
