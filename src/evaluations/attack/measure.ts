/**
 * The linkage attack's measurement (src/evaluations/measure.ts): the targets and partial profiles
 * of a trial are its setup (shared by the cells of every κ and every mechanism of the trial), the
 * cell's attacker hashes them once per `known` with the cell's hash functions (drawn at the first
 * result asked), and each result's released codes are ranked against them in one kernel pass per
 * probe (src/evaluations/attack/linkage.ts attackMeans). Its values live in a store folder of their
 * own (src/evaluations/attack/store.ts).
 */
import type { Measurement } from '../measure.js';
import { cellAttacker, trialProfiles, type CellAttacker, type TrialProfiles } from './cell.js';
import type { AttackValue } from './linkage.js';
import type { MeasureCell } from '../measure.js';

/** What the attack is asked of a result: the `known` values, and at most how many targets (absent: every user). */
export interface AttackAsk {
  known: number[];
  targets?: number;
}

interface AttackState {
  cell: MeasureCell;
  setup: () => TrialProfiles;
  attacker?: CellAttacker;
  out: Map<string, AttackValue[]>;
}

export const ATTACK_MEASURE: Measurement<AttackAsk, AttackState, AttackValue[], TrialProfiles> = {
  trialSetup: (data, at) => trialProfiles(data.vectors, at),
  begin: (cell, setup) => ({ cell, setup, out: new Map() }),
  take(state, release, asked) {
    if (asked.known.length === 0) return;
    const { cell } = state;
    // the cell's targets and partial profiles, drawn at the first result that asks for them
    state.attacker ??= cellAttacker(cell.vectors, cell, asked.targets ?? Infinity, cell.family, state.setup());
    state.out.set(release.id, state.attacker(release, asked.known));
  },
  finish: ({ out }) => out,
};
