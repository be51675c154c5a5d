/**
 * The audit's files: audit.json (`{results: [...], real_pairs: [...], ...}`), audit.csv (one line
 * per result), audit-cdf.svg (loss CDF against the exact one) and audit.html. Written atomically;
 * the content depends only on the config, the seed and the flags (no times, no paths of this machine).
 */
import { join } from 'node:path';
import Papa from 'papaparse';
import { writeFileAtomicSync } from '../util/atomic.js';
import { renderSvg } from '../report/render.js';
import { lossCdfSpec } from '../report/privacyFigures.js';
import { auditPage, type AuditJson } from '../report/audit.js';
import type { AuditOutcome, AuditResult } from './run.js';

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

/** Writes audit.json, audit.csv, audit-cdf.svg (when there is a CDF) and audit.html into `dir`. */
export async function writeAudit(dir: string, outcome: AuditOutcome, meta: AuditMeta): Promise<string[]> {
  const json = auditJson(outcome, meta);
  const written: string[] = [];
  const put = (name: string, data: string) => {
    writeFileAtomicSync(join(dir, name), data);
    written.push(name);
  };
  put('audit.json', stringifyAudit(json));
  put('audit.csv', auditCsv(outcome.results));
  let svg: string | null = null;
  if (outcome.cdf.length) {
    svg = await renderSvg(lossCdfSpec(outcome.cdf, outcome.cdfXi));
    put('audit-cdf.svg', svg);
  }
  put('audit.html', auditPage(json, svg));
  return written;
}
