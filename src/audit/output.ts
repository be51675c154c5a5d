/**
 * The audit's data files: audit.json (`{results: [...], real_pairs: [...], ...}`) and audit.csv (one
 * line per result). Their content depends only on the config, the seed and the flags (no times, no
 * paths of this machine). `writeAuditFiles` (src/report/audit.ts) writes them atomically, with the
 * loss-CDF figure and audit.html.
 */
import Papa from 'papaparse';
import type { AuditOutcome, AuditResult, RealPairResult } from './run.js';

export interface AuditMeta {
  config: { name: string; file: string };
  seed: number | string;
  samples: number;
  selection_samples: number;
  band: number;
  family_alpha: number;
  sound_factor: number;
  datasets: { name: string; n: number; users_scanned: number; pairs_found: number; band: number; pairs_used: number }[];
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
  'tail',
  'tail_ci_low',
  'tail_ci_high',
  'exact_tail',
  'epsilon_bit',
  'epsilon_lb',
  'epsilon_lb_threshold',
  'tpr',
  'fpr',
  'samples',
  'p_violation',
  'p_violation_holm',
  'p_sound',
  'p_sound_holm',
  'loss_sup',
] as const;

const cell = (x: unknown): string | number => (x === null || x === undefined ? '' : (x as string | number));

/** audit.csv: one line per (mechanism, κ, ξ). */
export function auditCsv(results: readonly AuditResult[]): string {
  return (
    Papa.unparse(
      {
        fields: [...AUDIT_CSV_COLUMNS],
        data: results.map((r) => [
          r.mechanism,
          r.base,
          cell(r.accountant),
          r.kappa,
          r.xi,
          r.d,
          cell(r.delta),
          r.verdict,
          cell(r.tail),
          cell(r.tail_ci?.[0]),
          cell(r.tail_ci?.[1]),
          cell(r.exact_tail),
          cell(r.epsilon_bit),
          r.epsilon_lb,
          r.epsilon_lb_threshold,
          r.tpr,
          r.fpr,
          r.samples,
          cell(r.p_violation),
          cell(r.p_violation_holm),
          cell(r.p_sound),
          cell(r.p_sound_holm),
          cell(r.loss_sup),
        ]),
      },
      { newline: '\n' },
    ) + '\n'
  );
}

/** JSON with Infinity written as the string "Infinity" (JSON has no infinity; null would hide it). */
export function stringifyAudit(value: unknown): string {
  return JSON.stringify(value, (_k, v) => (v === Infinity ? 'Infinity' : v), 2) + '\n';
}
