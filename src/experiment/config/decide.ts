/**
 * The `decide:` block (docs/RUNNING.md, "The decision"): the attack-success targets at which
 * `lshdp choose` compares mechanisms (utility at matched attack success), and where it reads the
 * attacks and the utility. It enters no result's hash: adding, changing or removing it recomputes
 * nothing. `resolveDecide` gives the effective settings, with the command line's overrides.
 */
import { z } from 'zod';
import { UserError } from '../../util/errors.js';

const share = z.number().refine(Number.isFinite, 'must be a finite number').pipe(z.number().gt(0).lt(1));
const targets = z
  .array(share)
  .min(1, 'must list at least one value')
  .transform((a) => [...new Set(a)].sort((x, y) => x - y));

export const DECIDE_BLOCK = z.strictObject({
  /** targets on the linkage attack's reid@1 (at the known share `known`) */
  reid1: targets.optional(),
  /** the linkage attack's known share: one of attack.known; default its nearest to 0.5 */
  known: z.number().refine(Number.isFinite, 'must be a finite number').pipe(z.number().gt(0).max(1)).optional(),
  /** targets on attribute inference's auc advantage over `null` (at the auxiliary share `aux`) */
  auc_adv: targets.optional(),
  /** attribute inference's auxiliary share: one of infer.aux; default its nearest to 0.5 */
  aux: share.optional(),
  /** the utility's k: one of k; default its nearest to 10 */
  k: z.number().int().min(1).optional(),
});

export type DecideConfig = z.infer<typeof DECIDE_BLOCK>;

/** The effective decision settings: the targets (empty when not asked) and where each is read. */
export interface DecideSettings {
  reid1: number[];
  /** the known share of reid1 (null without an attack block) */
  known: number | null;
  auc_adv: number[];
  /** the auxiliary share of auc_adv (null without an infer block) */
  aux: number | null;
  k: number;
}

/** What the command line may override (`lshdp choose --reid1 T --known K --auc-adv T --aux A --k K`). */
export interface DecideOverrides {
  reid1?: number[];
  known?: number;
  auc_adv?: number[];
  aux?: number;
  k?: number;
}

/** The grid the settings must fall on: the attack's known shares, the inference's aux shares, the k list. */
interface DecideGrid {
  k: readonly number[];
  attack?: { known: readonly number[] };
  infer?: { aux: readonly number[] };
}

/** The value of `values` nearest to `to`; of two as near, the smaller. */
export function nearest(values: readonly number[], to: number): number {
  let best = values[0]!;
  for (const v of values) if (Math.abs(v - to) < Math.abs(best - to) || (Math.abs(v - to) === Math.abs(best - to) && v < best)) best = v;
  return best;
}

const list = (xs: readonly number[]) => `[${xs.join(', ')}]`;

/**
 * The problems of a decide block (and overrides) against the grid, one line each; `name` says how
 * a key is named in them (`decide.known` in a config, `--known` on the command line).
 */
export function decideProblems(block: DecideOverrides, grid: DecideGrid, name: (key: keyof DecideOverrides) => string): string[] {
  const problems: string[] = [];
  const inOpen = (x: number) => Number.isFinite(x) && x > 0 && x < 1;
  for (const key of ['reid1', 'auc_adv'] as const) {
    const bad = block[key]?.find((x) => !inOpen(x));
    if (bad !== undefined) problems.push(`${name(key)}: every target must lie in (0, 1), got ${bad}`);
  }
  if (block.known !== undefined && !(inOpen(block.known) || block.known === 1)) problems.push(`${name('known')}: must lie in (0, 1], got ${block.known}`);
  if (block.aux !== undefined && !inOpen(block.aux)) problems.push(`${name('aux')}: must lie in (0, 1), got ${block.aux}`);
  if (block.k !== undefined && !(Number.isInteger(block.k) && block.k >= 1)) problems.push(`${name('k')}: must be a positive integer, got ${block.k}`);
  if ((block.reid1?.length ?? 0) === 0 && (block.auc_adv?.length ?? 0) === 0) problems.push(`decide: needs at least one target, reid1 or auc_adv (--reid1 or --auc-adv on the command line)`);
  if (block.reid1 && !grid.attack) problems.push(`${name('reid1')}: needs the linkage attack (an attack: block; docs/ATTACKS.md)`);
  if (block.auc_adv && !grid.infer) problems.push(`${name('auc_adv')}: needs attribute inference (an infer: block; docs/ATTACKS.md)`);
  if (block.known !== undefined && grid.attack && !grid.attack.known.includes(block.known)) problems.push(`${name('known')}: ${block.known} is not one of attack.known ${list(grid.attack.known)}`);
  if (block.known !== undefined && !grid.attack) problems.push(`${name('known')}: needs the linkage attack (an attack: block)`);
  if (block.aux !== undefined && grid.infer && !grid.infer.aux.includes(block.aux)) problems.push(`${name('aux')}: ${block.aux} is not one of infer.aux ${list(grid.infer.aux)}`);
  if (block.aux !== undefined && !grid.infer) problems.push(`${name('aux')}: needs attribute inference (an infer: block)`);
  if (block.k !== undefined && !grid.k.includes(block.k)) problems.push(`${name('k')}: ${block.k} is not one of k ${list(grid.k)}`);
  return problems;
}

/** The grid of a parsed config (its attack's known shares and its inference's aux shares as defaulted). */
function gridOf(cfg: { k: readonly number[]; attack?: { known: readonly number[] }; infer?: { aux: readonly number[] } }): DecideGrid {
  return { k: cfg.k, ...(cfg.attack ? { attack: { known: cfg.attack.known } } : {}), ...(cfg.infer ? { infer: { aux: cfg.infer.aux } } : {}) };
}

/** A config's decide block against its grid (config/checks.ts), keys named `decide.<key>`. */
export function decideChecks(cfg: { k: readonly number[]; decide?: DecideConfig; attack?: { known: readonly number[] }; infer?: { aux: readonly number[] } }): string[] {
  return cfg.decide ? decideProblems(cfg.decide, gridOf(cfg), (key) => `decide.${key}`) : [];
}

/**
 * The effective decision settings of a config with the command line's overrides (each replaces
 * the config's value of its key): `known`, `aux` and `k` default to the grid's nearest to 0.5, 0.5
 * and 10. Null when neither the config nor the overrides give a target (no decision section). A
 * value off the grid is a one-line UserError naming the key (`--known` when it came from the
 * command line, `decide.known` when from the config).
 */
export function resolveDecide(
  cfg: { k: readonly number[]; decide?: DecideConfig; attack?: { known: readonly number[] }; infer?: { aux: readonly number[] } },
  overrides: DecideOverrides = {},
): DecideSettings | null {
  const given = Object.fromEntries(Object.entries(overrides).filter(([, v]) => v !== undefined)) as DecideOverrides;
  const merged: DecideOverrides = { ...(cfg.decide ?? {}), ...given };
  if ((merged.reid1?.length ?? 0) === 0 && (merged.auc_adv?.length ?? 0) === 0 && Object.keys(given).length === 0) return null;
  const grid = gridOf(cfg);
  const problems = decideProblems(merged, grid, (key) => (key in given ? `--${key.replace('_', '-')}` : `decide.${key}`));
  if (problems.length > 0) throw new UserError(problems.join('; '));
  const sorted = (xs: number[] | undefined) => [...new Set(xs ?? [])].sort((x, y) => x - y);
  return {
    reid1: sorted(merged.reid1),
    known: merged.known ?? (grid.attack ? nearest(grid.attack.known, 0.5) : null),
    auc_adv: sorted(merged.auc_adv),
    aux: merged.aux ?? (grid.infer ? nearest(grid.infer.aux, 0.5) : null),
    k: merged.k ?? nearest(grid.k, 10),
  };
}
