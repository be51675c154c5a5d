/**
 * The store folders of the evaluations with one of their own (the linkage attack's `attack/`,
 * beside `cells/`): folders of the one store implementation (src/machinery/recordStore.ts), whose
 * records each unit's hooks read, plan and merge (src/evaluations/<unit>/store.ts). Run, status,
 * merge and the folder readers reach every such folder through this list, naming none.
 */
import { RecordStore } from './recordStore.js';
import { evaluations, evaluationsIn, type Evaluation } from '../evaluations/index.js';
import type { OwnRecord, OwnStore } from '../evaluations/measure.js';
import type { GridEntry } from './manifest.js';

/** The records of every own store folder of a grid: store folder → cell key → record. */
export type OwnRecords = ReadonlyMap<string, ReadonlyMap<string, OwnRecord>>;

/** An evaluation with a store folder of its own. */
export type OwnEvaluation = Evaluation & { store: OwnStore };

const ownOnly = (list: readonly Evaluation[]): OwnEvaluation[] => list.filter((e): e is OwnEvaluation => e.store?.where === 'own');

/** The evaluations of a config with a store folder of their own, in list order (every listed one without a config). */
export function ownEvaluations(cfg?: object): OwnEvaluation[] {
  return ownOnly(cfg ? evaluationsIn(cfg) : evaluations());
}

/** The store folder of an evaluation of its own store, in a results folder. */
export function ownStore(e: OwnEvaluation, resultsDir: string): RecordStore<OwnRecord> {
  return new RecordStore(resultsDir, e.facts.store, e.store.accepts as (rec: OwnRecord) => boolean);
}

/** The store folders of the config's evaluations with one of their own, by folder name. */
export function ownStores(cfg: object, resultsDir: string): Map<string, RecordStore<OwnRecord>> {
  return new Map(ownEvaluations(cfg).map((e) => [e.facts.store, ownStore(e, resultsDir)]));
}

/** The hashes a manifest's trial cell entry lists for the entries of an own store folder (entry key → hash), if any. */
export function ownHashesOf(g: GridEntry, folder: string): Record<string, string> | undefined {
  return (g as unknown as Record<string, Record<string, string> | undefined>)[folder];
}

/** Every record of the config's own store folders for the given cell keys (absent and stale ones left out). */
export function readOwnRecords(resultsDir: string, cfg: object, keys: readonly string[]): Map<string, Map<string, OwnRecord>> {
  const out = new Map<string, Map<string, OwnRecord>>();
  for (const [folder, store] of ownStores(cfg, resultsDir)) {
    const records = new Map<string, OwnRecord>();
    for (const k of keys) {
      const rec = store.read(k);
      if (rec) records.set(k, rec);
    }
    out.set(folder, records);
  }
  return out;
}
