/**
 * attack.csv and the per-trial attack values (config `attack`, docs/ATTACKS.md, docs/OUTPUTS.md),
 * rebuilt from the attack records in canonical order: data set, n, κ, mechanism entry (config
 * order), ξ (config order), known (ascending); mean and standard error over the trials.
 */
import type { ExperimentConfig } from './config/schema.js';
import type { MechanismInfo } from '../mechanisms/types.js';
import { UserError } from '../util/errors.js';
import { resultSpecs, trialKey } from './grid.js';
import type { AttackRecord } from './records.js';
import type { AttackTrialValue } from './trialValues.js';
import { attackEntryKey } from './attack.js';
import { accountantOf, meanSe } from './aggregate.js';
import { CONCENTRATION_COLUMNS } from './columns.js';

/** attack.csv's columns, in file order (CONCENTRATION_COLUMNS follow when the config has a directional mechanism). */
export const ATTACK_COLUMNS = ['dataset', 'n', 'kappa', 'mechanism', 'base', 'accountant', 'xi', 'known', 'reid1_mean', 'reid1_se', 'reid10_mean', 'reid10_se', 'trials', 'users', 'targets'] as const;
export const ATTACK_HEADER = ATTACK_COLUMNS.join(',');

/** The per-trial values of one attack.csv row, and what its ξ meant (the concentration column). */
export interface AttackRow {
  values: AttackTrialValue[];
  /** the mechanism's own ε (the concentration of the directional ones), null where none */
  own: number | null;
  info: MechanismInfo;
}

/** Every row of attack.csv with its per-trial values, in file order; a one-line error naming a missing cell or entry. */
export function attackRows(cfg: ExperimentConfig, records: Map<string, AttackRecord>, info: (name: string) => MechanismInfo): AttackRow[] {
  if (!cfg.attack) return [];
  const rows: AttackRow[] = [];
  const expansion = resultSpecs(cfg.mechanisms, cfg.privacy.xi, info);
  for (const ds of cfg.datasets) {
    for (const n of cfg.dims) {
      for (const kappa of cfg.kappa) {
        const trials: AttackRecord[] = [];
        for (let t = 0; t < cfg.trials; t++) {
          const key = trialKey(ds.name, n, kappa, t, cfg.recommend);
          const rec = records.get(key);
          if (!rec) throw new UserError(`results store: attack/${key}.json is missing; run again to compute it`);
          trials.push(rec);
        }
        for (const { entry, xi, spec } of expansion) {
          for (const known of cfg.attack.known) {
            const entryKey = attackEntryKey(spec.id, known);
            const values = trials.map((rec, trial): AttackTrialValue => {
              const e = rec.entries[entryKey];
              if (!e) throw new UserError(`results store: attack/${rec.key}.json has no entry ${entryKey}; run again to compute it`);
              return {
                dataset: ds.name,
                n,
                kappa,
                mechanism: entry.label,
                base: entry.name,
                accountant: accountantOf(entry),
                xi,
                known,
                trial,
                reid1: e.reid1,
                reid10: e.reid10,
                users: e.users,
                targets: e.targets,
              };
            });
            rows.push({ values, own: trials[0]!.entries[entryKey]!.eps.epsilon, info: info(entry.name) });
          }
        }
      }
    }
  }
  return rows;
}

const num = (x: number | null | undefined): string => (x === null || x === undefined ? '' : x === Infinity ? 'inf' : String(x));

/** attack.csv's text. */
export function attackCsv(cfg: ExperimentConfig, rows: readonly AttackRow[], info: (name: string) => MechanismInfo): string {
  const directional = cfg.mechanisms.some((m) => info(m.name).epsilonKind === 'concentration');
  const lines = [directional ? `${ATTACK_HEADER},${CONCENTRATION_COLUMNS.join(',')}` : ATTACK_HEADER];
  for (const row of rows) {
    const v0 = row.values[0]!;
    const r1 = meanSe(row.values.map((v) => v.reid1));
    const r10 = meanSe(row.values.map((v) => v.reid10));
    const extra = !directional ? [] : row.info.epsilonKind === 'concentration' ? [num(row.own), row.info.concentrationMetric ?? ''] : ['', ''];
    lines.push(
      [
        v0.dataset,
        v0.n,
        v0.kappa,
        v0.mechanism,
        v0.base,
        v0.accountant ?? '',
        num(v0.xi),
        v0.known,
        num(r1.mean),
        num(r1.se),
        num(r10.mean),
        num(r10.se),
        row.values.length,
        v0.users,
        v0.targets,
        ...extra,
      ].join(','),
    );
  }
  return lines.join('\n') + '\n';
}
