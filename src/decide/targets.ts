/**
 * The targets a matched table is computed for: the folder config's `decide:` block with the
 * command line's overrides, as src/experiment/config/decide.ts resolves them (each flag replaces
 * its key; known, aux and k default to the grid's nearest to 0.5, 0.5 and 10). Target lists give
 * one table per value, and with both kinds one per pair (ξ* the smaller crossing).
 */
import type { ExperimentConfig } from '../experiment/config/schema.js';
import { resolveDecide, type DecideSettings } from '../experiment/config/decide.js';
import { readResultsConfig } from '../machinery/readFolder.js';
import { UserError } from '../util/errors.js';
import type { Targets } from './read.js';

export interface TargetFlags {
  reid1?: number;
  aucAdv?: number;
  known?: number;
  aux?: number;
  k?: number;
}

/** Every target set of resolved settings. */
export function targetsOf(s: DecideSettings): Targets[] {
  const reid: (number | null)[] = s.reid1.length ? s.reid1 : [null];
  const auc: (number | null)[] = s.auc_adv.length ? s.auc_adv : [null];
  const at = { known: s.known ?? 0.5, aux: s.aux ?? 0.5, k: s.k };
  return reid.flatMap((r) => auc.map((a) => ({ reid1: r, aucAdv: a, ...at }))).filter((t) => t.reid1 !== null || t.aucAdv !== null);
}

/**
 * A config's settings with the flags' overrides; null without any target. A target on the command
 * line replaces the block's targets of both kinds (`choose --reid1 T` matches on reid@1 alone, even
 * where the block also names auc_adv); known, aux and k replace their keys.
 */
export function decideSettings(config: ExperimentConfig, flags: TargetFlags = {}): DecideSettings | null {
  const given = flags.reid1 !== undefined || flags.aucAdv !== undefined;
  const block = config.decide;
  const target = (flag: number | undefined, fromBlock: number[] | undefined) => (flag !== undefined ? [flag] : given && fromBlock ? [] : undefined);
  return resolveDecide(config, {
    reid1: target(flags.reid1, block?.reid1),
    auc_adv: target(flags.aucAdv, block?.auc_adv),
    known: flags.known,
    aux: flags.aux,
    k: flags.k,
  });
}

/**
 * The targets for results folder `dir`: its config's decide: block with the flags; a one-line error
 * when neither gives one. With the folder's config, for the tables to read (its manifest read once).
 */
export function decideTargets(dir: string, flags: TargetFlags): { config: ExperimentConfig; targets: Targets[] } {
  const { config } = readResultsConfig(dir);
  const settings = decideSettings(config, flags);
  const targets = settings ? targetsOf(settings) : [];
  if (targets.length === 0) throw new UserError(`lshdp choose: ${dir}: no target (give --reid1 T or --auc-adv T, or run a config with a decide: block)`);
  return { config, targets };
}
