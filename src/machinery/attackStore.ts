/**
 * The store folders of the evaluations with one of their own (the linkage attack's `attack/`,
 * beside `cells/`): folders of the one store implementation (src/machinery/recordStore.ts), whose
 * records each unit's hooks read, plan and merge (src/evaluations/attack/store.ts).
 */
import { RecordStore } from './recordStore.js';
import type { AttackRecord } from '../evaluations/attack/records.js';
import { ATTACK_FACTS } from '../evaluations/attack/facts.js';
import { isAttackRecord } from '../evaluations/attack/store.js';
import { evaluationsIn } from '../evaluations/index.js';
import type { OwnRecord } from '../evaluations/measure.js';

/** The linkage attack's folder, `attack/<trial cell key>.json` (status, merge and the folder readers open it by itself). */
export class AttackStore extends RecordStore<AttackRecord> {
  constructor(resultsDir: string) {
    super(resultsDir, ATTACK_FACTS.store, isAttackRecord);
  }
}

/** The store folders of the config's evaluations with one of their own, by folder name. */
export function ownStores(cfg: object, resultsDir: string): Map<string, RecordStore<OwnRecord>> {
  const out = new Map<string, RecordStore<OwnRecord>>();
  for (const e of evaluationsIn(cfg)) if (e.store?.where === 'own') out.set(e.facts.store, new RecordStore(resultsDir, e.facts.store, e.store.accepts as (rec: OwnRecord) => boolean));
  return out;
}
