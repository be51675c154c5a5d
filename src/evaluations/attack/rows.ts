/**
 * attack.csv's rows (docs/ATTACKS.md, docs/OUTPUTS.md) from the walk of src/experiment/walk.ts:
 * per (data set, n, κ), mechanism entry, ξ and known the per-trial reid@1 and reid@10, read from
 * the attack's own store folder (attack/<trial cell key>.json).
 */
import type { AttackRecord } from '../../experiment/records.js';
import type { RowHooks, WalkedRow } from '../../experiment/walk.js';
import type { AttackTrialValue } from '../../experiment/trialValues.js';
import { attackEntryKey } from './linkage.js';
import { ATTACK_FACTS } from './facts.js';

export const ATTACK_ROWS: RowHooks<AttackRecord> = {
  facts: ATTACK_FACTS,
  noun: 'attack entry',
  point(record, id, { at }) {
    const e = record.entries[attackEntryKey(id, at.known!)];
    return e ? { values: { reid1: e.reid1, reid10: e.reid10 }, extra: { users: e.users, targets: e.targets }, eps: e.eps } : undefined;
  },
};

/** The per-trial values of attack.csv's rows, in file order. */
export function attackTrialValues(rows: readonly WalkedRow[]): AttackTrialValue[] {
  return rows.flatMap((r) =>
    r.values.reid1!.map((reid1, trial) => ({
      dataset: r.dataset,
      n: r.n,
      kappa: r.kappa!,
      mechanism: r.mechanism,
      base: r.base,
      accountant: r.accountant,
      xi: r.xi,
      known: r.at.known!,
      trial,
      reid1,
      reid10: r.values.reid10![trial]!,
      users: r.extra.users as number,
      targets: r.extra.targets as number,
    })),
  );
}
