/**
 * The linkage attack's part of the results store (config `attack`, docs/ATTACKS.md):
 * `attack/<trial cell key>.json`, one file per trial cell beside `cells/`, written atomically when
 * the cell's work finishes. A cell's record holds one entry per (result id, known), each with the
 * hash of everything that determines it, and is reused, grown and kept exactly as the results of
 * `cells/` are (src/machinery/store.ts): a stale entry is computed again, an entry the config no
 * longer asks for is kept until `lshdp status --prune`. Keeping the attack apart is what lets a
 * finished grid gain `attack` with every cell record's bytes unchanged.
 */
import { RecordStore } from './recordStore.js';
import type { ExperimentConfig } from '../experiment/config/schema.js';
import type { ResultSpec, TrialCell } from '../experiment/grid.js';
import type { AttackRecord, StoredAttack } from '../evaluations/attack/records.js';
import { ATTACK_FACTS } from '../evaluations/attack/facts.js';
import type { TrialResult } from '../experiment/trial.js';
import { attackEntryKey, attackHash } from '../evaluations/attack/linkage.js';

/** The `kind` of every record of attack/. */
const ATTACK_RECORD_KIND = 'attack';

/** 1: one entry per (result id, known) (lshdp 0.3). */
export const ATTACK_STORE_FORMAT = 1;

/** Whether a record of `attack/` is whole and of the current format. */
const isAttackRecord = (rec: AttackRecord): boolean => rec.format === ATTACK_STORE_FORMAT && rec.kind === ATTACK_RECORD_KIND && rec.entries !== null && typeof rec.entries === 'object';

export class AttackStore extends RecordStore<AttackRecord> {
  constructor(resultsDir: string) {
    super(resultsDir, ATTACK_FACTS.store, isAttackRecord);
  }
}

/** One result of a trial cell to attack, at the `known` values missing or stale in the store. */
export interface PendingAttack {
  spec: ResultSpec;
  known: number[];
}

/** What the attack adds to a run's plan. */
export interface AttackPlan {
  /** trial cell key → attack entry key → hash */
  hashes: Map<string, Map<string, string>>;
  /** the valid records the store holds for this run's cells */
  records: Map<string, AttackRecord>;
  /** trial cell key → its results to attack */
  pending: Map<string, PendingAttack[]>;
  /** entries of this run's cells, and how many are reused */
  total: number;
  reused: number;
}

/** The hashes of every attack entry of the given cells (cell key → entry key → hash). */
export function attackHashes(
  cfg: ExperimentConfig,
  cells: readonly TrialCell[],
  results: readonly ResultSpec[],
  resultHashes: Map<string, Map<string, string>>,
  usersOf: (c: TrialCell) => number,
): Map<string, Map<string, string>> {
  const out = new Map<string, Map<string, string>>();
  if (!cfg.attack) return out;
  for (const c of cells) {
    const targets = Math.min(cfg.attack.targets, usersOf(c));
    const rh = resultHashes.get(c.key)!;
    const hashes = new Map<string, string>();
    for (const r of results) for (const known of cfg.attack.known) hashes.set(attackEntryKey(r.id, known), attackHash(rh.get(r.id)!, known, targets));
    out.set(c.key, hashes);
  }
  return out;
}

/** What the attack store holds of this run's cells, and per cell the results to attack. */
export function planAttack(
  cfg: ExperimentConfig,
  cells: readonly TrialCell[],
  mine: (c: TrialCell) => boolean,
  results: readonly ResultSpec[],
  hashes: Map<string, Map<string, string>>,
  store: AttackStore,
  force: boolean,
): AttackPlan {
  const records = new Map<string, AttackRecord>();
  const pending = new Map<string, PendingAttack[]>();
  let total = 0;
  let reused = 0;
  if (!cfg.attack) return { hashes, records, pending, total, reused };
  for (const c of cells) {
    if (!mine(c)) continue;
    const rec = force ? null : store.read(c.key);
    const h = hashes.get(c.key)!;
    const todo: PendingAttack[] = [];
    for (const r of results) {
      const known: number[] = [];
      for (const k of cfg.attack.known) {
        total++;
        const key = attackEntryKey(r.id, k);
        if (rec?.entries[key]?.hash === h.get(key)) reused++;
        else known.push(k);
      }
      if (known.length > 0) todo.push({ spec: r, known });
    }
    if (rec) records.set(c.key, rec);
    if (todo.length > 0) pending.set(c.key, todo);
  }
  return { hashes, records, pending, total, reused };
}

/** The stored attack record of a cell with freshly computed entries merged in (other entries kept, keys sorted). */
export function mergeAttackRecord(prev: AttackRecord | undefined, key: string, todo: readonly PendingAttack[], out: readonly TrialResult[], hashes: Map<string, string>, ms: number): AttackRecord {
  const entries: Record<string, StoredAttack> = { ...(prev?.entries ?? {}) };
  const byId = new Map(out.map((r) => [r.id, r]));
  const count = todo.reduce((s, t) => s + t.known.length, 0);
  for (const { spec, known } of todo) {
    const r = byId.get(spec.id);
    for (const k of known) {
      const v = r?.attack?.find((a) => a.known === k);
      if (!r || !v) throw new Error(`trial cell ${key}: no attack value of ${spec.id} at known ${k} came back`);
      const entryKey = attackEntryKey(spec.id, k);
      entries[entryKey] = {
        hash: hashes.get(entryKey)!,
        id: spec.id,
        base: spec.base,
        options: spec.options,
        xi: spec.xi,
        eps: r.eps,
        known: k,
        reid1: v.reid1,
        reid10: v.reid10,
        users: v.users,
        targets: v.targets,
        ms: Math.round(ms / Math.max(1, count)),
      };
    }
  }
  const sorted: Record<string, StoredAttack> = {};
  for (const id of Object.keys(entries).sort()) sorted[id] = entries[id];
  return { format: ATTACK_STORE_FORMAT, key, kind: ATTACK_RECORD_KIND, entries: sorted };
}
