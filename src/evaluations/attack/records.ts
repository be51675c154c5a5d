/**
 * What the linkage attack's store folder holds (attack/<trial cell key>.json: planned and merged
 * by src/evaluations/attack/store.ts, read and written by the machinery's one store): one entry
 * per (result id, known), each with its own hash.
 */
import type { EpsilonInfo } from '../../privacy/types.js';

/**
 * One linkage-attack value of a trial cell (config `attack`, docs/ATTACKS.md): one result's codes
 * attacked at one `known`, with the hash of everything that determines it
 * (src/evaluations/attack/linkage.ts attackHash).
 */
export interface StoredAttack {
  hash: string;
  /** the result whose codes were ranked (its id in the trial record) */
  id: string;
  base: string;
  options: Record<string, unknown>;
  xi: number | null;
  /** what the result's ξ meant (the concentration column of attack.csv) */
  eps: EpsilonInfo;
  known: number;
  /** means over the targets of this trial */
  reid1: number;
  reid10: number;
  /** released codes ranked, and targets */
  users: number;
  targets: number;
  /** compute time, ms; provenance only */
  ms: number;
}

/**
 * The attack values of one trial cell: `attack/<cell key>.json` (src/evaluations/attack/store.ts),
 * beside `cells/`, so that adding `attack` to a finished grid leaves the cell records' bytes as
 * they are. Entries are keyed by attackEntryKey(result id, known).
 */
export interface AttackRecord {
  format: number;
  key: string;
  kind: 'attack';
  entries: Record<string, StoredAttack>;
}
