/**
 * The linkage attack's store folder (config `attack`, docs/ATTACKS.md): `attack/<trial cell
 * key>.json`, one record per trial cell beside `cells/` (the machinery's one store implementation,
 * src/machinery/recordStore.ts, reads and writes it). A cell's record holds one entry per (result
 * id, known), each with the hash of everything that determines it (attackHash), and is reused,
 * grown and kept exactly as the results of `cells/` are: a stale entry is computed again, an entry
 * the config no longer asks for is kept until `lshdp status --prune`. Keeping the attack apart is
 * what lets a finished grid gain `attack` with every cell record's bytes unchanged.
 */
import type { OwnStore, PendingAsk } from '../measure.js';
import type { AttackRecord, StoredAttack } from './records.js';
import type { AttackValue } from './linkage.js';
import { attackEntryKey, attackHash } from './linkage.js';
import type { AttackAsk } from './measure.js';
import { ATTACK_FACTS } from './facts.js';

/** The `kind` of every record of attack/. */
const ATTACK_RECORD_KIND = 'attack';

/** 1: one entry per (result id, known) (lshdp 0.3). */
export const ATTACK_STORE_FORMAT = 1;

/** Whether a record of `attack/` is whole and of the current format. */
export const isAttackRecord = (rec: AttackRecord): boolean => rec.format === ATTACK_STORE_FORMAT && rec.kind === ATTACK_RECORD_KIND && rec.entries !== null && typeof rec.entries === 'object';

export const ATTACK_STORE: OwnStore<AttackAsk, AttackRecord> = {
  where: 'own',
  accepts: isAttackRecord,
  hashes(cfg, cells, results, resultHashes, usersOf) {
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
  },
  pending(cfg, rec, results, hashes) {
    const todo: PendingAsk<AttackAsk>[] = [];
    let total = 0;
    let reused = 0;
    if (!cfg.attack) return { todo, total, reused };
    for (const r of results) {
      const known: number[] = [];
      for (const k of cfg.attack.known) {
        total++;
        const key = attackEntryKey(r.id, k);
        if (rec?.entries[key]?.hash === hashes.get(key)) reused++;
        else known.push(k);
      }
      if (known.length > 0) todo.push({ spec: r, asked: { known, targets: cfg.attack.targets } });
    }
    return { todo, total, reused };
  },
  count: (asked) => asked.known.length,
  merge(prev, key, todo, out, hashes, ms) {
    const entries: Record<string, StoredAttack> = { ...(prev?.entries ?? {}) };
    const byId = new Map(out.map((r) => [r.id, r]));
    const count = todo.reduce((s, t) => s + t.asked.known.length, 0);
    for (const { spec, asked } of todo) {
      const r = byId.get(spec.id);
      const values = r?.values[ATTACK_FACTS.name] as AttackValue[] | undefined;
      for (const k of asked.known) {
        const v = values?.find((a) => a.known === k);
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
  },
};
