/**
 * The targets a matched table is computed for: the command line's, else the folder config's
 * `decide:` block (every key optional but one target; lists give one table per value, and with both
 * kinds one per pair); known, aux and k default to 0.5, 0.5 and 10, each read as the grid's nearest.
 */
import type { ExperimentConfig } from '../experiment/config/schema.js';
import { readResultsConfig } from '../machinery/readFolder.js';
import { UserError } from '../util/errors.js';
import type { Targets } from './read.js';

export const DEFAULT_KNOWN = 0.5;
export const DEFAULT_AUX = 0.5;
export const DEFAULT_K = 10;

/** The `decide:` block as a config holds it. */
export interface DecideBlock {
  reid1?: number[];
  known?: number;
  auc_adv?: number[];
  aux?: number;
  k?: number;
}

export interface TargetFlags {
  reid1?: number;
  aucAdv?: number;
  known?: number;
  aux?: number;
  k?: number;
}

/** Every target set of a block (and the flags that override it). */
export function targetsOf(block: DecideBlock | undefined, flags: TargetFlags): Targets[] {
  const at = { known: flags.known ?? block?.known ?? DEFAULT_KNOWN, aux: flags.aux ?? block?.aux ?? DEFAULT_AUX, k: flags.k ?? block?.k ?? DEFAULT_K };
  if (flags.reid1 !== undefined || flags.aucAdv !== undefined) return [{ reid1: flags.reid1 ?? null, aucAdv: flags.aucAdv ?? null, ...at }];
  const reid: (number | null)[] = block?.reid1?.length ? block.reid1 : [null];
  const auc: (number | null)[] = block?.auc_adv?.length ? block.auc_adv : [null];
  const out = reid.flatMap((r) => auc.map((a) => ({ reid1: r, aucAdv: a, ...at })));
  return out.filter((t) => t.reid1 !== null || t.aucAdv !== null);
}

/** A config's `decide:` block, undefined without one. */
export function decideBlockOf(config: ExperimentConfig): DecideBlock | undefined {
  return (config as unknown as { decide?: DecideBlock }).decide;
}

/** The targets for results folder `dir`: the flags', else its config's decide: block; a one-line error when neither gives one. */
export function decideTargets(dir: string, flags: TargetFlags): Targets[] {
  const out = targetsOf(decideBlockOf(readResultsConfig(dir).config), flags);
  if (out.length === 0) throw new UserError(`lshdp choose: ${dir}: no target (give --reid1 T or --auc-adv T, or run a config with a decide: block)`);
  return out;
}
