/**
 * The audit's data files: audit.json (`{results: [...], real_pairs: [...], ...}`) and audit.csv (one
 * line per result). Their content depends only on the config, the seed and the flags (no times, no
 * paths of this machine). `writeAuditFiles` (src/report/audit.ts) writes them atomically, with the
 * loss-CDF figure and audit.html.
 */
import Papa from 'papaparse';
import type { AuditOutcome, AuditResult, RealPairResult } from './types.js';

export interface AuditMeta {
  config: { name: string; file: string };
  seed: number | string;
  samples: number;
  selection_samples: number;
  band: number;
  family_alpha: number;
  /** the m rows that claim a budget (each tested at family_alpha / m) */
  rows_tested: number;
  /** the black-box ε_lb of every tested row hold together with this confidence (Bonferroni) */
  joint_confidence: number;
  power_target: number;
  datasets: { name: string; synthetic: boolean; n: number; users_scanned: number; pairs_found: number; duplicate_pairs: number; band: number; pairs_used: number }[];
}

/**
 * audit.json as `lshdp audit` writes it (`auditJson` below), seen by a reader: the rows of the
 * issue's schema are required, the rest may be absent in a file written by hand or by an older lshdp.
 */
export interface AuditJson extends Partial<Omit<AuditMeta, 'config'>> {
  config?: Partial<AuditMeta['config']>;
  results: (Pick<AuditResult, 'mechanism' | 'accountant' | 'kappa' | 'xi' | 'd' | 'delta' | 'verdict' | 'tail' | 'tail_ci' | 'epsilon_lb' | 'samples'> & Partial<AuditResult>)[];
  real_pairs?: Omit<RealPairResult, 'accountant' | 'd' | 'delta'>[];
}

/** audit.json's object: the issue's `results` schema first, then the real pairs and the metadata. */
export function auditJson(outcome: AuditOutcome, meta: AuditMeta): AuditJson & Record<string, unknown> {
  return { results: outcome.results, real_pairs: outcome.real_pairs, ...meta };
}

export const AUDIT_CSV_COLUMNS = [
  'mechanism',
  'base',
  'accountant',
  'kappa',
  'xi',
  'd',
  'delta',
  'verdict',
  'law_direction',
  'tests',
  'reason',
  'claim',
  'claimed',
  'pair',
  'pairs_tried',
  'tail',
  'tail_ci_low',
  'tail_ci_high',
  'exact_tail',
  'epsilon_bit',
  'parameter',
  'realized',
  'realized_lb',
  'allowed',
  'p_release',
  'realized_tail',
  'flip_rate',
  'flip_bits',
  'epsilon_lb',
  'confidence',
  'epsilon_ceiling',
  'samples_needed',
  'samples_needed_extrapolated',
  'epsilon_lb_threshold',
  'tpr',
  'fpr',
  'samples',
  'level',
  'p_black_box',
  'law_ks',
  'p_law',
  'detectable_inflation',
  'detectable_by',
  'loss_sup',
] as const;

const cell = (x: unknown): string | number => (x === null || x === undefined ? '' : (x as string | number));

/** One audit.csv value of a result: `tests` joined by `+`, `tail_ci` split in two columns. */
function csvValue(r: AuditResult, column: (typeof AUDIT_CSV_COLUMNS)[number]): string | number {
  if (column === 'tests') return r.tests.join('+');
  if (column === 'tail_ci_low') return cell(r.tail_ci?.[0]);
  if (column === 'tail_ci_high') return cell(r.tail_ci?.[1]);
  return cell(r[column]);
}

/** audit.csv: one line per (mechanism, κ, ξ). */
export function auditCsv(results: readonly AuditResult[]): string {
  return Papa.unparse({ fields: [...AUDIT_CSV_COLUMNS], data: results.map((r) => AUDIT_CSV_COLUMNS.map((c) => csvValue(r, c))) }, { newline: '\n' }) + '\n';
}

/** JSON with Infinity written as the string "Infinity" (JSON has no infinity; null would hide it). */
export function stringifyAudit(value: unknown): string {
  return JSON.stringify(value, (_k, v) => (v === Infinity ? 'Infinity' : v), 2) + '\n';
}
